//! Closest features of convex polyhedra (seed 001, Lin–Canny; digest §2).
