//! Floors 1-5 (bounding volumes, partitioning, shapes, queries): each query against an
//! independent reference (brute force, closed forms, exact integer arithmetic, GJK).
//!
//! One test binary for these floors, as for all under `tests/` (a binary per floor, so that the
//! crate is linked a few times rather than once per suite); one suite per file under
//! `tests/geometry/`, sharing `tests/common`. Run one suite with
//! `cargo test --release --test geometry closest_features`.
//!
//! proptest reruns the failing cases it once found, kept beside their suite in
//! `<suite>.proptest-regressions`. It finds them there only because no `lib.rs` or
//! `main.rs` lies in `tests/` or its folders: a root at `tests/lib.rs` or
//! `tests/<floor>/main.rs` would make it look in a `proptest-regressions/` folder instead.
mod common;

mod geometry {
    /// The bottom-up AABB hierarchy against brute force.
    mod aabb_tree;
    /// The broad phases (uniform grid, sort and sweep, the choice) against brute force.
    mod broad_phase;
    /// Lin-Canny closest features against GJK and brute force.
    mod closest_features;
    /// GJK against closed forms; the triangle-box test against GJK.
    mod convex_queries;
    /// OBB-tree descent, mesh containment and mesh distances.
    mod mesh_queries;
    /// Penetration depth: planar measures and the 3D MTD.
    mod penetration;
    /// The triangle-triangle test against an exact integer reference.
    mod triangle_triangle;
}
