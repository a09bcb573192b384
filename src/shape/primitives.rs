//! Solid primitives (`shape_msgs/SolidPrimitive` conventions: centred, axis along z).
use crate::math::{Point3, Real, Vector3};

/// Box with half extents along x, y, z.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid {
    pub half_extents: Vector3,
}

/// Sphere around the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    pub radius: Real,
}

/// Cylinder along z from `-half_height` to `half_height`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    pub half_height: Real,
    pub radius: Real,
}

/// Cone along z: base disc of `radius` at `-half_height`, apex at `+half_height`
/// (as FCL/coal and `shape_msgs/SolidPrimitive`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone {
    pub half_height: Real,
    pub radius: Real,
}

/// Capsule: the points within `radius` of the segment from `-half_height` to
/// `half_height` on z (URDF `capsule` length is the segment's length).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    pub half_height: Real,
    pub radius: Real,
}

impl Cuboid {
    pub fn contains_point(&self, p: &Point3) -> bool {
        (0..3).all(|i| p[i].abs() <= self.half_extents[i])
    }
}

impl Ball {
    pub fn contains_point(&self, p: &Point3) -> bool {
        p.coords.norm_squared() <= self.radius * self.radius
    }
}

impl Cylinder {
    pub fn contains_point(&self, p: &Point3) -> bool {
        p.z.abs() <= self.half_height && p.x * p.x + p.y * p.y <= self.radius * self.radius
    }
}

impl Cone {
    pub fn contains_point(&self, p: &Point3) -> bool {
        if p.z.abs() > self.half_height {
            return false;
        }
        // Radius shrinks linearly from `radius` at the base to 0 at the apex.
        let r = self.radius * (self.half_height - p.z) / (2.0 * self.half_height);
        p.x * p.x + p.y * p.y <= r * r
    }
}

impl Capsule {
    pub fn contains_point(&self, p: &Point3) -> bool {
        let z = p.z.clamp(-self.half_height, self.half_height);
        let d2 = p.x * p.x + p.y * p.y + (p.z - z) * (p.z - z);
        d2 <= self.radius * self.radius
    }
}
