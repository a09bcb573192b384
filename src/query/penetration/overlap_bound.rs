//! A cheap upper bound of the translational depth of two convex parts: their overlap
//! along a few axes. Translating B by `h_A(n) + h_B(-n)` along a unit `n` (the overlap of
//! their projections on `n`) carries it past A, so every axis's overlap is at least the
//! depth (Keerthi & Sridharan's I(A,B) is the least translation that separates). Along
//! every axis of the separating-axis test — each part's face normals and the cross
//! products of their edge directions — the least overlap is the depth itself for two
//! polytopes (two triangles, a triangle and a box); for a curved part it stays a bound.
//!
//! A mesh's depth is the largest over its triangles; with these bounds the triangles are
//! measured deepest bound first, and those whose bound cannot beat the deepest found are
//! never given to EPA ([`super::shape_depth`]). Any subset of the axes gives a bound too
//! (a looser one): [`face_overlap_bound`] orders the candidates cheaply, and the whole
//! test is run only on those that may beat the deepest found.
use crate::math::{Isometry3, Matrix3, Point3, Real, Vector3};
use crate::shape::{Shape, SupportMap};

/// One convex part in the world frame: a triangle, a box (in closed form), or a convex
/// shape and its pose (its local axes stand for its face normals and edge directions).
#[derive(Clone, Copy)]
pub enum Part<'a> {
    Triangle([Point3; 3]),
    /// A box: centre, axes (the columns, unit) and half extents along them.
    Box(Point3, Matrix3, Vector3),
    Convex(&'a dyn SupportMap, &'a Isometry3),
}

impl<'a> Part<'a> {
    /// A convex shape placed by `pose`: a cuboid as a box, in closed form.
    pub fn convex(shape: &'a Shape, pose: &'a Isometry3) -> Option<Self> {
        match shape {
            Shape::Cuboid(c) => Some(Part::Box(pose * Point3::origin(), *pose.rotation.to_rotation_matrix().matrix(), c.half_extents)),
            other => Some(Part::Convex(other.as_support_map()?, pose)),
        }
    }

    /// The least and the largest of `x . n` over the part (the least as the negated
    /// largest along `-n`, to the bit).
    fn projection(&self, n: &Vector3) -> (Real, Real) {
        match self {
            Part::Triangle(t) => {
                let dots = t.map(|p| p.coords.dot(n));
                (dots[0].min(dots[1]).min(dots[2]), dots[0].max(dots[1]).max(dots[2]))
            }
            Part::Box(center, axes, half) => {
                let (middle, reach) = (center.coords.dot(n), half.dot(&axes.tr_mul(n).abs()));
                (middle - reach, middle + reach)
            }
            Part::Convex(shape, pose) => {
                let extent = |d: &Vector3| (*pose * shape.support(&pose.rotation.inverse_transform_vector(d))).coords.dot(d);
                (-extent(&-n), extent(n))
            }
        }
    }

    /// Whether the part is a polytope (a triangle or a box), whose separating-axis
    /// test's axes hold its depth's direction against another polytope.
    pub fn is_polytope(&self) -> bool {
        matches!(self, Part::Triangle(_) | Part::Box(..))
    }

    /// Face normals (not unit) and edge directions.
    fn faces_and_edges(&self) -> ([Option<Vector3>; 3], [Vector3; 3]) {
        match self {
            Part::Triangle([a, b, c]) => ([Some((b - a).cross(&(c - a))), None, None], [b - a, c - b, a - c]),
            Part::Box(_, axes, _) => {
                let axes = [0, 1, 2].map(|i| axes.column(i).into_owned());
                (axes.map(Some), axes)
            }
            Part::Convex(_, pose) => {
                let axes = [Vector3::x(), Vector3::y(), Vector3::z()].map(|e| pose.rotation * e);
                (axes.map(Some), axes)
            }
        }
    }
}

/// Slack added to the bound (metres, and relative): EPA's depth may lie above the exact
/// one by its own accuracy (measured 3.4e-11 m), and a bound must stay at least it.
const SLACK: Real = 1e-9;

/// An upper bound of the translational depth of `a` and `b`: the least overlap of their
/// projections over the separating-axis test's axes, raised by `SLACK`. Negative when
/// an axis separates them.
pub fn overlap_bound(a: &Part, b: &Part) -> Real {
    raised(every_axis_overlap(a, b))
}

/// The least overlap over every axis of the separating-axis test (not raised).
fn every_axis_overlap(a: &Part, b: &Part) -> Real {
    let (faces_a, edges_a) = a.faces_and_edges();
    let (faces_b, edges_b) = b.faces_and_edges();
    let crosses = edges_a.iter().flat_map(|ea| edges_b.iter().map(move |eb| Some(ea.cross(eb))));
    least_overlap(a, b, faces_a.into_iter().chain(faces_b).chain(crosses).flatten())
}

/// The depth of two polytope parts ([`Part::is_polytope`]) itself, where they overlap:
/// the least overlap of their projections over every axis of the separating-axis test,
/// without `SLACK`. The least translation that separates two polytopes leaves their
/// Minkowski difference through a facet, and each facet's normal is a face normal of
/// one part or the cross product of an edge of each: the least overlap over those axes
/// is Keerthi & Sridharan's I(A,B), not only a bound of it (to rounding; each axis's
/// overlap is never below it). Negative where an axis separates the parts. For a
/// curved part it would be only a bound: use [`overlap_bound`].
pub fn polytope_depth(a: &Part, b: &Part) -> Real {
    debug_assert!(a.is_polytope() && b.is_polytope(), "the depth of polytopes only");
    every_axis_overlap(a, b)
}

/// A cheaper and looser bound than [`overlap_bound`]: the least overlap over the parts'
/// face normals alone (for two triangles, 2 axes of the test's 11). Two surfaces that
/// cross have little of either on one side of the other's plane, so this bound is
/// often near the depth; where it cannot beat the deepest found, the whole test is
/// never needed.
pub fn face_overlap_bound(a: &Part, b: &Part) -> Real {
    let (faces_a, _) = a.faces_and_edges();
    let (faces_b, _) = b.faces_and_edges();
    raised(least_overlap(a, b, faces_a.into_iter().chain(faces_b).flatten()))
}

/// A least overlap raised by [`SLACK`], so that it bounds EPA's depth too.
fn raised(least: Real) -> Real {
    least + SLACK * (1.0 + least.abs())
}

/// The least overlap of the parts' projections over the `axes` (not unit; each
/// overlap is at least the depth).
fn least_overlap(a: &Part, b: &Part, axes: impl Iterator<Item = Vector3>) -> Real {
    let mut least = Real::INFINITY;
    for axis in axes {
        let length = axis.norm();
        if length.is_nan() || length <= 1e-12 {
            continue;
        }
        let n = axis / length;
        let ((least_a, most_a), (least_b, most_b)) = (a.projection(&n), b.projection(&n));
        let overlap = (most_a - least_b).min(most_b - least_a);
        least = least.min(overlap);
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Triangle, test_uniform};
    use crate::query::penetration::penetration_depth;
    use crate::shape::{Ball, Cuboid, TriangleShape};
    use nalgebra::{Translation3, UnitQuaternion};

    /// Random triangles against random triangles, boxes (through their support map and
    /// in closed form) and balls, all overlapping or nearly: the bound is never below
    /// EPA's depth, and for two polytopes it is that depth (the separating-axis test's
    /// axes hold the depth's direction); the face normals' bound is never below it.
    #[test]
    fn the_bound_holds_and_is_the_depth_of_polytopes() {
        let mut u = test_uniform(0x0b0d);
        let point = |s: Real, u: &mut dyn FnMut() -> Real| Point3::new(s * (u() - 0.5), s * (u() - 0.5), s * (u() - 0.5));
        let (mut compared, mut tight) = (0, 0);
        for case in 0..3000 {
            let tri: Triangle = [point(0.3, &mut u), point(0.3, &mut u), point(0.3, &mut u)];
            let (shift, turn) = (point(0.2, &mut u).coords, point(2.0, &mut u).coords);
            let pose_b = Isometry3::from_parts(Translation3::from(shift), UnitQuaternion::from_scaled_axis(turn));
            let identity = Isometry3::identity();
            let other: Triangle = [point(0.3, &mut u), point(0.3, &mut u), point(0.3, &mut u)];
            let cuboid = Cuboid { half_extents: Vector3::new(0.05 + 0.1 * u(), 0.05 + 0.1 * u(), 0.05 + 0.1 * u()) };
            let ball = Ball { radius: 0.05 + 0.1 * u() };
            let placed = other.map(|p| pose_b * p);
            let as_shape = Shape::Cuboid(cuboid);
            let closed_form = Part::convex(&as_shape, &pose_b).unwrap();
            assert!(matches!(closed_form, Part::Box(..)));
            let shapes: [(&dyn SupportMap, Part, bool); 4] = [
                (&TriangleShape(&other), Part::Triangle(placed), true),
                (&cuboid, Part::Convex(&cuboid, &pose_b), true),
                (&cuboid, closed_form, true),
                (&ball, Part::Convex(&ball, &pose_b), false),
            ];
            for (shape, part, polytope) in shapes {
                let Some(depth) = penetration_depth(&TriangleShape(&tri), &identity, shape, &pose_b) else { continue };
                let bound = overlap_bound(&Part::Triangle(tri), &part);
                compared += 1;
                assert!(bound >= depth.depth, "case {case}: bound {bound} below the depth {}", depth.depth);
                let faces = face_overlap_bound(&Part::Triangle(tri), &part);
                assert!(faces >= bound - 1e-15, "case {case}: the face normals' bound {faces} below the whole test's {bound}");
                if polytope {
                    assert!(bound - depth.depth < 1e-7, "case {case}: bound {bound} above the polytopes' depth {}", depth.depth);
                    tight += 1;
                }
            }
        }
        assert!(compared > 500 && tight > 300, "{compared} depths compared, {tight} of polytopes");
    }
}
