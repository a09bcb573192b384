//! Axis-aligned bounding box.
use crate::math::{Point3, Real, Vector3};

/// A closed axis-aligned box `[mins, maxs]`. Boxes that touch overlap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub mins: Point3,
    pub maxs: Point3,
}

impl Aabb {
    pub fn new(mins: Point3, maxs: Point3) -> Self {
        Self { mins, maxs }
    }

    /// The empty box, neutral element of [`Aabb::merged`].
    pub fn empty() -> Self {
        let inf = Real::INFINITY;
        Self::new(Point3::new(inf, inf, inf), Point3::new(-inf, -inf, -inf))
    }

    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Point3>) -> Self {
        let mut aabb = Self::empty();
        for p in points {
            aabb.take_point(p);
        }
        aabb
    }

    pub fn take_point(&mut self, p: &Point3) {
        self.mins = self.mins.inf(p);
        self.maxs = self.maxs.sup(p);
    }

    pub fn merged(&self, other: &Aabb) -> Aabb {
        Aabb::new(self.mins.inf(&other.mins), self.maxs.sup(&other.maxs))
    }

    /// The distance between the two boxes (0 when they overlap): a lower bound of the
    /// distance of anything they hold.
    pub fn distance(&self, other: &Aabb) -> Real {
        (self.mins - other.maxs).sup(&(other.mins - self.maxs)).map(|g| g.max(0.0)).norm()
    }

    /// Closed-interval overlap on all three axes.
    pub fn intersects(&self, other: &Aabb) -> bool {
        (0..3).all(|i| self.mins[i] <= other.maxs[i] && other.mins[i] <= self.maxs[i])
    }

    /// Whether `other` lies wholly inside this box.
    pub fn contains(&self, other: &Aabb) -> bool {
        (0..3).all(|i| self.mins[i] <= other.mins[i] && other.maxs[i] <= self.maxs[i])
    }

    pub fn contains_point(&self, p: &Point3) -> bool {
        (0..3).all(|i| self.mins[i] <= p[i] && p[i] <= self.maxs[i])
    }

    pub fn loosened(&self, margin: Real) -> Aabb {
        let m = Vector3::repeat(margin);
        Aabb::new(self.mins - m, self.maxs + m)
    }

    pub fn center(&self) -> Point3 {
        nalgebra::center(&self.mins, &self.maxs)
    }

    pub fn half_extents(&self) -> Vector3 {
        (self.maxs - self.mins) * 0.5
    }

    pub fn extents(&self) -> Vector3 {
        self.maxs - self.mins
    }

    pub fn is_empty(&self) -> bool {
        (0..3).any(|i| self.mins[i] > self.maxs[i])
    }
}
