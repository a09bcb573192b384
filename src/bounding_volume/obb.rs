//! Oriented bounding box and its separating-axis overlap test (Gottschalk et al., the
//! OBB-tree test that Redon et al. 2004 §5.1 builds on).
use super::Aabb;
use crate::math::{Isometry3, Matrix3, Point3, Real, Vector3};

/// A box with centre, orthonormal axes (the columns of `axes`) and half extents,
/// expressed in the frame of the shape that owns it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    pub center: Point3,
    pub axes: Matrix3,
    pub half_extents: Vector3,
}

/// Added to every |R_ij| of the separating-axis test so that nearly parallel edges,
/// whose cross products vanish, cannot produce a false separation.
const PARALLEL_EPSILON: Real = 1e-12;

/// Cross products of two edges shorter than this are left out of
/// [`Obb::separation_placed`]: the edges are within 0.06° of parallel, and dividing by
/// the length would magnify the rounding of the axes.
const EDGE_AXIS_MIN_LENGTH: Real = 1e-3;

/// What [`Obb::separation_placed`] takes off its gap, relative to the boxes' size and
/// distance: far above the rounding of the axes' products (1e-16 relative, magnified at
/// most a thousandfold by the edge axes' lengths), far below any distance a query needs.
const SEPARATION_ROUNDING: Real = 1e-9;

impl Obb {
    pub fn from_aabb(aabb: &Aabb) -> Self {
        Self { center: aabb.center(), axes: Matrix3::identity(), half_extents: aabb.half_extents() }
    }

    /// The tightest box with the given axes around the points.
    pub fn fit(axes: Matrix3, points: impl Iterator<Item = Point3>) -> Self {
        let mut lo = Vector3::repeat(Real::INFINITY);
        let mut hi = Vector3::repeat(Real::NEG_INFINITY);
        for p in points {
            let local = axes.tr_mul(&p.coords);
            lo = lo.inf(&local);
            hi = hi.sup(&local);
        }
        let center_local = (lo + hi) * 0.5;
        Self { center: Point3::from(axes * center_local), axes, half_extents: (hi - lo) * 0.5 }
    }

    /// Whether this box and `other` overlap, `other` being placed in this box's frame
    /// by `other_to_self`. Closed boxes; errs only towards "overlap".
    pub fn intersects(&self, other: &Obb, other_to_self: &Isometry3) -> bool {
        self.intersects_placed(&other.placed_by(&other_to_self.rotation.to_rotation_matrix().into_inner(), &other_to_self.translation.vector))
    }

    /// This box under the rigid pose with rotation matrix `rotation` and `translation`
    /// (for many boxes under one pose: its quaternion's matrix made once).
    pub fn placed_by(&self, rotation: &Matrix3, translation: &Vector3) -> Obb {
        Obb { center: Point3::from(rotation * self.center.coords + translation), axes: rotation * self.axes, half_extents: self.half_extents }
    }

    /// Whether this box and `other`, given in the same frame, overlap. Closed boxes; errs
    /// only towards "overlap" (by `PARALLEL_EPSILON` and a relative 1e-12).
    pub fn intersects_placed(&self, other: &Obb) -> bool {
        self.face_overlap_placed(other).is_some()
    }

    /// With `other` given in the same frame: `None` where one of the fifteen separating
    /// axes shows the boxes apart (as [`Self::intersects_placed`]); else the smallest
    /// overlap of their projections on the six face axes, an upper bound of their
    /// translational depth (a translation along an axis by the projections' overlap
    /// separates them), and so of the depth of anything inside them. Errs only upwards.
    pub fn face_overlap_placed(&self, other: &Obb) -> Option<Real> {
        self.face_overlap_beyond(other, None)
    }

    /// `self.face_overlap_placed(other).is_some_and(|overlap| overlap > above)`, told
    /// sooner: a face axis whose overlap is not above `above` ends the test before the
    /// edge axes (a walk for what may be deeper than `above` drops most pairs so).
    pub fn face_overlap_exceeds(&self, other: &Obb, above: Real) -> bool {
        self.face_overlap_beyond(other, Some(above)).is_some()
    }

    /// [`Self::face_overlap_placed`], and with `above`, `None` as soon as a face axis's
    /// overlap (raised as the least one is) is not above it: the least overlap is then
    /// not above it either.
    fn face_overlap_beyond(&self, other: &Obb, above: Option<Real>) -> Option<Real> {
        let axes = SeparatingAxes::new(self, other);
        let slack = 1e-12 * (1.0 + axes.t.amax() + self.half_extents.amax() + other.half_extents.amax());
        let raise = |overlap: Real| overlap * (1.0 + 1e-12);
        // Whether a face axis's `gap` (negative: an overlap) leaves the boxes worth testing on.
        let open = |gap: Real| gap <= 0.0 && above.is_none_or(|above| raise(-gap) > above);
        // The six face axes written out (indices the compiler folds), in the order of a loop.
        let faces =
            [axes.face_of_first(0), axes.face_of_first(1), axes.face_of_first(2), axes.face_of_second(0), axes.face_of_second(1), axes.face_of_second(2)];
        let mut overlap = Real::INFINITY;
        for (centres, radii) in faces {
            let gap = centres - (radii + slack);
            if !open(gap) {
                return None;
            }
            overlap = overlap.min(-gap);
        }
        // The nine edge axes written out (indices the compiler folds), in the order of a loop.
        let separates = |i: usize, j: usize| {
            let (centres, radii) = axes.edge(i, j);
            centres > radii + slack
        };
        let apart = separates(0, 0)
            || separates(0, 1)
            || separates(0, 2)
            || separates(1, 0)
            || separates(1, 1)
            || separates(1, 2)
            || separates(2, 0)
            || separates(2, 1)
            || separates(2, 2);
        (!apart).then(|| raise(overlap))
    }

    /// A proven lower bound of the distance between this box and `other`, given in the
    /// same frame: the largest gap between their projections on the fifteen axes of the
    /// separating-axis test (Gottschalk's: the six face normals and the nine cross
    /// products of an edge of each, each gap over its axis's length) and on the line
    /// through their centres, rounded down; 0 or less where no axis separates them.
    ///
    /// Each gap is the distance of the boxes' shadows on a unit axis, which no pair of
    /// their points comes closer than. A branch and bound over two meshes' OBB trees takes
    /// it as the bound of a node pair: a few dozen operations where GJK on the two boxes
    /// iterates ([`crate::query::distance::mesh_mesh_distance`]).
    pub fn separation_placed(&self, other: &Obb) -> Real {
        let axes = SeparatingAxes::new(self, other);
        let (a, b, r, t) = (&self.half_extents, &other.half_extents, &axes.r, &axes.t);
        let mut gap = Real::NEG_INFINITY;
        for k in 0..3 {
            let (centres, radii) = axes.face_of_first(k);
            gap = gap.max(centres - radii);
            let (centres, radii) = axes.face_of_second(k);
            gap = gap.max(centres - radii);
        }
        // The nine edge axes written out, each independent of the others (so that their
        // square roots and divisions overlap): the same gaps as a loop over them.
        let edge_gaps = [
            axes.edge_gap(0, 0),
            axes.edge_gap(0, 1),
            axes.edge_gap(0, 2),
            axes.edge_gap(1, 0),
            axes.edge_gap(1, 1),
            axes.edge_gap(1, 2),
            axes.edge_gap(2, 0),
            axes.edge_gap(2, 1),
            axes.edge_gap(2, 2),
        ];
        gap = edge_gaps.iter().fold(gap, |gap, &g| gap.max(g));
        let centres = t.norm();
        if centres > 0.0 {
            let u = t / centres;
            gap = gap.max(centres - a.dot(&u.abs()) - b.dot(&(r.tr_mul(&u)).abs()));
        }
        // The axes are orthonormal only to rounding, which the edge axes' lengths divide.
        gap - SEPARATION_ROUNDING * (1.0 + t.amax() + a.amax() + b.amax())
    }

    /// A proven lower bound of the distance from `point` (in the box's frame of
    /// reference) to this box: its distance to the nearest point of the box, rounded down
    /// as [`Self::separation_placed`] is.
    pub fn point_separation(&self, point: &Point3) -> Real {
        let local = self.axes.tr_mul(&(point - self.center));
        let outside = (local.abs() - self.half_extents).sup(&Vector3::zeros());
        outside.norm() - SEPARATION_ROUNDING * (1.0 + local.amax() + self.half_extents.amax())
    }

    /// The box's own frame: its centre and axes as a rigid pose.
    pub fn frame(&self) -> Isometry3 {
        let rotation = nalgebra::UnitQuaternion::from_rotation_matrix(&nalgebra::Rotation3::from_matrix_unchecked(self.axes));
        Isometry3::from_parts(self.center.coords.into(), rotation)
    }

    /// The eight corners.
    pub fn corners(&self) -> [Point3; 8] {
        let mut out = [Point3::origin(); 8];
        for (k, c) in out.iter_mut().enumerate() {
            let s = Vector3::new(if k & 1 == 0 { -1.0 } else { 1.0 }, if k & 2 == 0 { -1.0 } else { 1.0 }, if k & 4 == 0 { -1.0 } else { 1.0 });
            *c = self.center + self.axes * s.component_mul(&self.half_extents);
        }
        out
    }

    /// Axis-aligned box around this box placed by `pose`.
    pub fn transformed_aabb(&self, pose: &Isometry3) -> Aabb {
        let center = pose * self.center;
        let axes = pose.rotation.to_rotation_matrix().matrix() * self.axes;
        let half = axes.abs() * self.half_extents;
        Aabb::new(center - half, center + half)
    }
}

/// Two boxes given in one frame, seen from the first box's axes: on each of the fifteen
/// axes of the separating-axis test (Gottschalk's), the distance of their centres'
/// projections and the sum of the boxes' projection radii. The boxes are apart along
/// an axis whose first number exceeds the second; an edge axis `a_i x b_j` is not
/// unit, both numbers scale with its length.
struct SeparatingAxes<'a> {
    /// The second box's axes in the first box's.
    r: Matrix3,
    /// `|r|`, each entry raised by `PARALLEL_EPSILON`.
    abs_r: Matrix3,
    /// The centres' offset in the first box's axes.
    t: Vector3,
    a: &'a Vector3,
    b: &'a Vector3,
}

impl<'a> SeparatingAxes<'a> {
    fn new(first: &'a Obb, second: &'a Obb) -> Self {
        let r = first.axes.tr_mul(&second.axes);
        let t = first.axes.tr_mul(&(second.center - first.center));
        Self { abs_r: r.abs().add_scalar(PARALLEL_EPSILON), r, t, a: &first.half_extents, b: &second.half_extents }
    }

    /// The first box's face axis `i`.
    #[inline(always)]
    fn face_of_first(&self, i: usize) -> (Real, Real) {
        let (abs_r, b) = (&self.abs_r, self.b);
        (self.t[i].abs(), self.a[i] + (b[0] * abs_r[(i, 0)] + b[1] * abs_r[(i, 1)] + b[2] * abs_r[(i, 2)]))
    }

    /// The second box's face axis `j`.
    #[inline(always)]
    fn face_of_second(&self, j: usize) -> (Real, Real) {
        let (r, abs_r, t, a) = (&self.r, &self.abs_r, &self.t, self.a);
        ((t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)]).abs(), (a[0] * abs_r[(0, j)] + a[1] * abs_r[(1, j)] + a[2] * abs_r[(2, j)]) + self.b[j])
    }

    /// The gap of the boxes' shadows on the unit axis along the cross product of the
    /// first box's edge `i` and the second's edge `j`; minus infinity where the edges are
    /// nearly parallel (|a_i x b_j| below `EDGE_AXIS_MIN_LENGTH`), which gives no axis the
    /// face axes lack.
    #[inline(always)]
    fn edge_gap(&self, i: usize, j: usize) -> Real {
        let r = self.r[(i, j)];
        let length = (1.0 - r * r).max(0.0).sqrt();
        let (centres, radii) = self.edge(i, j);
        if length >= EDGE_AXIS_MIN_LENGTH { (centres - radii) / length } else { Real::NEG_INFINITY }
    }

    /// The cross product of the first box's edge `i` and the second's edge `j`.
    #[inline(always)]
    fn edge(&self, i: usize, j: usize) -> (Real, Real) {
        let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
        let (r, abs_r, t, a, b) = (&self.r, &self.abs_r, &self.t, self.a, self.b);
        let ra = a[i1] * abs_r[(i2, j)] + a[i2] * abs_r[(i1, j)];
        let rb = b[j1] * abs_r[(i, j2)] + b[j2] * abs_r[(i, j1)];
        ((t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs(), ra + rb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::test_uniform;
    use nalgebra::UnitQuaternion;

    /// The early-ending test says what the full one says, on boxes from apart to
    /// nested, some with parallel axes (where the edge axes vanish), for thresholds
    /// from below zero to past the overlaps.
    #[test]
    fn face_overlap_exceeds_agrees_with_face_overlap_placed() {
        let mut u = test_uniform(0x0bb5);
        let random_box = |u: &mut dyn FnMut() -> Real, aligned: bool| {
            let turn = if aligned { Vector3::zeros() } else { Vector3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 6.0 };
            Obb {
                center: Point3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 0.4,
                axes: *UnitQuaternion::from_scaled_axis(turn).to_rotation_matrix().matrix(),
                half_extents: Vector3::new(0.01 + 0.2 * u(), 0.01 + 0.2 * u(), 0.01 + 0.2 * u()),
            }
        };
        let (mut exceeded, mut not) = (0, 0);
        for case in 0..20000 {
            let (a, b) = (random_box(&mut u, case % 5 == 0), random_box(&mut u, case % 7 == 0));
            let full = a.face_overlap_placed(&b);
            let above = match case % 3 {
                0 => full.map_or(0.0, |o| o * (u() * 1.2)),
                1 => full.map_or(-0.01, |o| o),
                _ => 0.3 * (u() - 0.3),
            };
            let expected = full.is_some_and(|o| o > above);
            assert_eq!(a.face_overlap_exceeds(&b, above), expected, "case {case}: overlap {full:?}, above {above}");
            if expected { exceeded += 1 } else { not += 1 }
        }
        assert!(exceeded > 3000 && not > 3000, "{exceeded} exceeded, {not} not");
    }

    /// The separation never exceeds the boxes' distance (GJK's closest points on the two
    /// cuboids, which two points of the boxes attain), on boxes from nested to apart,
    /// some with parallel axes; it is the distance where a face axis separates two boxes
    /// with the same axes, and most of it elsewhere.
    #[test]
    fn separation_is_a_lower_bound_of_the_distance() {
        use crate::query::gjk;
        use crate::shape::Cuboid;
        let mut u = test_uniform(0x5e9a);
        let random_box = |u: &mut dyn FnMut() -> Real, turn: Option<Vector3>, spread: Real| {
            let turn = turn.unwrap_or_else(|| Vector3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 6.0);
            Obb {
                center: Point3::new(u() - 0.5, u() - 0.5, u() - 0.5) * spread,
                axes: *UnitQuaternion::from_scaled_axis(turn).to_rotation_matrix().matrix(),
                half_extents: Vector3::new(0.01 + 0.2 * u(), 0.01 + 0.2 * u(), 0.001 + 0.2 * u()),
            }
        };
        let (mut apart, mut worst_share) = (0, 1.0 as Real);
        for case in 0..20000 {
            let spread = [0.3, 1.0, 3.0][case % 3];
            let shared = (case % 4 == 0).then(|| Vector3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 6.0);
            let (a, b) = (random_box(&mut u, shared, spread), random_box(&mut u, shared, spread));
            let separation = a.separation_placed(&b);
            let cuboid = |o: &Obb| Cuboid { half_extents: o.half_extents };
            let distance = gjk::closest_points(&cuboid(&a), &a.frame(), &cuboid(&b), &b.frame()).distance;
            assert!(separation <= distance + 1e-12, "case {case}: separation {separation} above the distance {distance}");
            if distance > 1e-3 {
                apart += 1;
                worst_share = worst_share.min(separation / distance);
            }
            if shared.is_some() {
                // The same axes: the face axis with the largest gap is the distance when
                // the boxes' shadows overlap on the other two.
                let t = a.axes.tr_mul(&(b.center - a.center));
                let gaps = Vector3::from_fn(|i, _| t[i].abs() - a.half_extents[i] - b.half_extents[i]);
                if (gaps.iter().filter(|g| **g > 0.0).count()) == 1 {
                    assert!((separation - distance).abs() < 1e-8, "case {case}: {separation} against {distance}");
                }
            }
        }
        // The shadows on the line through the centres keep most of the distance.
        assert!(apart > 10000 && worst_share > 0.3, "{apart} apart, worst share {worst_share}");
    }

    /// A point's separation from a box is its distance from the nearest point of the box
    /// (GJK against the cuboid), less the rounding: inside, 0 or less.
    #[test]
    fn point_separation_is_the_distance_to_the_box() {
        use crate::query::gjk;
        use crate::shape::{Ball, Cuboid};
        let mut u = test_uniform(0x9017);
        for case in 0..5000 {
            let turn = Vector3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 6.0;
            let o = Obb {
                center: Point3::new(u() - 0.5, u() - 0.5, u() - 0.5),
                axes: *UnitQuaternion::from_scaled_axis(turn).to_rotation_matrix().matrix(),
                half_extents: Vector3::new(0.01 + 0.2 * u(), 0.01 + 0.2 * u(), 0.01 + 0.2 * u()),
            };
            let p = Point3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 2.0;
            let point = Ball { radius: 0.0 };
            let at = Isometry3::translation(p.x, p.y, p.z);
            let distance = gjk::closest_points(&Cuboid { half_extents: o.half_extents }, &o.frame(), &point, &at).distance;
            let separation = o.point_separation(&p);
            assert!(separation <= distance + 1e-12 && separation >= distance - 1e-8, "case {case}: {separation} against {distance}");
        }
    }
}
