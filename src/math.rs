//! Numeric types shared by every stage (all f64, SI units, frames as in REP 103).
pub type Real = f64;
pub type Point3 = nalgebra::Point3<Real>;
pub type Vector3 = nalgebra::Vector3<Real>;
pub type Matrix3 = nalgebra::Matrix3<Real>;
pub type Isometry3 = nalgebra::Isometry3<Real>;
pub type UnitQuaternion = nalgebra::UnitQuaternion<Real>;
pub type Translation3 = nalgebra::Translation3<Real>;

/// A triangle given by its three corners.
pub type Triangle = [Point3; 3];

/// A seeded generator of uniform reals in `[0, 1)` for unit tests (a 64-bit LCG, the
/// top 53 bits).
#[cfg(test)]
pub(crate) fn test_uniform(seed: u64) -> impl FnMut() -> Real {
    let mut state = seed;
    move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as Real / (1u64 << 53) as Real
    }
}
