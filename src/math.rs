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
