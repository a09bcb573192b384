//! The relative frame of the walk (Lin 1993 §3.6): each body's
//! features stay in its own frame and only the few points under test are mapped
//! across, never whole models.
use crate::math::{Isometry3, Matrix3, Point3, Real, Vector3};

/// A rigid map `x ↦ r x + t`, as a matrix (cheaper to apply than a quaternion).
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    r: Matrix3,
    t: Vector3,
}

impl Frame {
    pub fn from_isometry(iso: &Isometry3) -> Self {
        Frame { r: iso.rotation.to_rotation_matrix().into_inner(), t: iso.translation.vector }
    }

    pub fn inverse(&self) -> Self {
        let rt = self.r.transpose();
        Frame { r: rt, t: -(rt * self.t) }
    }

    #[inline]
    pub fn point(&self, p: &Point3) -> Point3 {
        Point3::from(self.r * p.coords + self.t)
    }

    #[inline]
    pub fn vector(&self, v: &Vector3) -> Vector3 {
        self.r * v
    }

    /// Length of the translation (for tolerances).
    pub fn offset(&self) -> Real {
        self.t.norm()
    }
}
