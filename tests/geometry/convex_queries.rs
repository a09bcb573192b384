//! GJK distances against closed forms (also triangles a hair away from curved rims),
//! and the triangle-box separating-axis test against GJK.
use ccd_guard::math::{Isometry3, Point3, Real, Vector3};
use ccd_guard::query::gjk::{closest_points, distance_lower_bound, gap_along, intersects, may_intersect, separating_plane_enough};
use ccd_guard::query::intersection::{intersection_point, triangle_box_overlap};
use ccd_guard::shape::{Ball, Capsule, Cone, Cuboid, Cylinder, Shape, SupportMap, TriangleShape};
use proptest::prelude::*;

use crate::common::rng::XorShift64;

fn iso(x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64) -> Isometry3 {
    Isometry3::new(Vector3::new(x, y, z), Vector3::new(rx, ry, rz))
}

#[test]
fn closed_form_distances() {
    let b = Cuboid { half_extents: Vector3::new(0.5, 0.5, 0.5) };
    let d = closest_points(&b, &Isometry3::identity(), &b, &iso(1.7, 0.2, -0.1, 0.0, 0.0, 0.0)).distance;
    assert!((d - 0.7).abs() < 1e-12, "{d}");
    let s = Ball { radius: 0.25 };
    let d = closest_points(&s, &iso(1.0, 1.0, 1.0, 0.3, 0.0, 0.0), &s, &iso(2.0, 2.0, 2.0, 0.0, 0.4, 0.0)).distance;
    assert!((d - (3f64.sqrt() - 0.5)).abs() < 1e-12, "{d}");
    // Sphere against box corner.
    let d = closest_points(&b, &Isometry3::identity(), &s, &iso(1.5, 1.5, 1.5, 0.0, 0.0, 0.0)).distance;
    assert!((d - (3f64.sqrt() - 0.25)).abs() < 1e-12, "{d}");
    // Parallel capsules side by side.
    let c = Capsule { half_height: 0.5, radius: 0.1 };
    let d = closest_points(&c, &Isometry3::identity(), &c, &iso(0.5, 0.0, 0.3, 0.0, 0.0, 0.0)).distance;
    assert!((d - 0.3).abs() < 1e-12, "{d}");
    // Cylinder rim against a sphere on its axis above the top.
    let cyl = Cylinder { half_height: 0.2, radius: 0.3 };
    let d = closest_points(&cyl, &Isometry3::identity(), &s, &iso(0.0, 0.0, 1.0, 0.0, 0.0, 0.0)).distance;
    assert!((d - 0.55).abs() < 1e-12, "{d}");
}

#[test]
fn intersection_points_lie_in_both_shapes() {
    let a = Shape::Cuboid(Cuboid { half_extents: Vector3::new(0.5, 0.3, 0.2) });
    let b = Shape::Cylinder(Cylinder { half_height: 0.4, radius: 0.1 });
    let pa = iso(0.1, 0.0, 0.0, 0.2, 0.1, 0.0);
    let pb = iso(0.5, 0.2, 0.1, 1.0, 0.0, 0.3);
    let p = intersection_point(&a, &pa, &b, &pb).expect("they overlap");
    let tol = 1e-9;
    let la = pa.inverse_transform_point(&p);
    let lb = pb.inverse_transform_point(&p);
    assert!(la.x.abs() <= 0.5 + tol && la.y.abs() <= 0.3 + tol && la.z.abs() <= 0.2 + tol, "{la}");
    assert!(lb.z.abs() <= 0.4 + tol && (lb.x * lb.x + lb.y * lb.y).sqrt() <= 0.1 + tol, "{lb}");
    assert!(intersection_point(&a, &pa, &b, &iso(2.0, 0.0, 0.0, 0.0, 0.0, 0.0)).is_none());
}

/// Which feature of the triangle meets the curved shape.
#[derive(Clone, Copy, Debug)]
enum Feature {
    Face,
    Edge,
    Corner,
}

/// A triangle whose exact signed distance to a convex shape is `d`: `p` is the shape's
/// unique support point in the unit direction `n` (a point of a rim or of a round cap),
/// the triangle touches the plane `x · n = p · n + d` at `f = p + d n` (with its face
/// around `f`, an edge through `f`, or a corner at `f`) and otherwise lies beyond it.
/// That plane separates when `d > 0`, and `f` is at distance `d` from `p`; when `d < 0`,
/// `f` lies inside the shape (`-n` points into it from `p`).
fn triangle_at(p: Vector3, n: Vector3, d: Real, feature: Feature, size: Real, turn: Real) -> [Point3; 3] {
    let t1 = n.cross(&if n.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() }).normalize();
    let t2 = n.cross(&t1);
    let along = |a: Real| t1 * a.cos() + t2 * a.sin();
    let f = p + n * d;
    let third = std::f64::consts::TAU / 3.0;
    let corners = match feature {
        Feature::Face => [f + along(turn) * size, f + along(turn + third) * size * 0.8, f + along(turn + 2.0 * third) * size * 1.3],
        Feature::Edge => [f - along(turn) * size * 0.6, f + along(turn) * size, f + along(turn + 1.9) * size * 0.7 + n * size * 0.4],
        Feature::Corner => [f, f + along(turn) * size + n * size * 0.3, f + along(turn + 1.2) * size * 0.9 + n * size * 0.05],
    };
    corners.map(Point3::from)
}

/// Triangles a hair (1e-9, 1e-10 m) from, touching, or 1e-9 m into the rims of
/// cylinders and cones and the caps of capsules, at many angles: GJK's distance, its
/// exact discrete test and its witnesses agree with the closed form to about 1e-12 of
/// the shapes' size, and the proven bounds stay below the distance. Regression: GJK
/// used to stop on the flat simplex a face or an edge builds against a rim, leaving
/// ~1e-8 m of distance (and `intersects` saying apart while the shapes overlapped).
#[test]
fn triangles_near_curved_rims() {
    let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
    let mut uniform = move |lo: Real, hi: Real| rng.range(lo, hi);
    let mut cases = 0;
    for shape_kind in 0..3 {
        for feature in [Feature::Face, Feature::Edge, Feature::Corner] {
            for _ in 0..12 {
                let (h, r) = (uniform(0.02, 0.15), uniform(0.03, 0.15));
                let (cylinder, cone, capsule) =
                    (Cylinder { half_height: h, radius: r }, Cone { half_height: h, radius: r }, Capsule { half_height: h, radius: r });
                // A point of the rim or cap, and a direction of its normal cone that
                // also points into the shape when reversed.
                let (shape, p, n): (&dyn SupportMap, Vector3, Vector3) = match shape_kind {
                    0 => {
                        let a = uniform(0.05, 1.5);
                        (&cylinder, Vector3::new(r, 0.0, h), Vector3::new(a.cos(), 0.0, a.sin()))
                    }
                    1 => {
                        let a = uniform(0.1, 0.9) * (2.0 * h / r).atan();
                        (&cone, Vector3::new(r, 0.0, -h), Vector3::new(a.cos(), 0.0, -a.sin()))
                    }
                    _ => {
                        let a = uniform(0.0, 1.5);
                        let n = Vector3::new(a.sin(), 0.0, a.cos());
                        (&capsule, Vector3::new(0.0, 0.0, h) + n * r, n)
                    }
                };
                let size = uniform(0.02, 0.2);
                let turn = uniform(0.0, std::f64::consts::TAU);
                let pose = iso(uniform(-0.5, 0.5), uniform(-0.5, 0.5), uniform(-0.5, 0.5), uniform(-2.0, 2.0), uniform(-2.0, 2.0), uniform(-2.0, 2.0));
                let n_world = pose.rotation * n;
                for d in [1e-9, 1e-10, 0.0, -1e-9] {
                    cases += 1;
                    let tri = triangle_at(p, n, d, feature, size, turn).map(|c| pose * c);
                    let tri_shape = TriangleShape(&tri);
                    let id = Isometry3::identity();
                    let what = format!("shape {shape_kind} ({h}, {r}), {feature:?}, d {d:e}, size {size}, turn {turn}");
                    let tol = 1e-12 * (size + h + r);
                    let cp = closest_points(&tri_shape, &id, shape, &pose);
                    assert!((cp.distance - d.max(0.0)).abs() <= tol, "{what}: distance {:e}", cp.distance);
                    assert!(((cp.point_a - cp.point_b).norm() - cp.distance).abs() <= tol, "{what}: witnesses {:e} apart", (cp.point_a - cp.point_b).norm());
                    if d > 0.0 {
                        let off = (cp.point_a - cp.point_b - n_world * d).norm();
                        assert!(off <= tol, "{what}: witnesses differ from d n by {off:e}");
                    }
                    if d != 0.0 {
                        assert_eq!(intersects(&tri_shape, &id, shape, &pose), d < 0.0, "{what}: intersects");
                    }
                    // Proven quantities: never above the distance, so never "apart" on overlap.
                    assert!(distance_lower_bound(&tri_shape, &id, shape, &pose) <= d.max(0.0) + 1e-15, "{what}: lower bound");
                    // Stopped early (a branch and bound's node bounds): still never above, and
                    // within the precision asked of what GJK reached (at least the distance),
                    // started anywhere: along the contact normal, against it, or nowhere.
                    let skew = (n_world.cross(&Vector3::new(0.3, -0.5, 0.8)) + n_world * 0.5).normalize();
                    for enough in [Real::INFINITY, 0.5 * d] {
                        for hint in [Vector3::zeros(), n_world, -n_world, skew] {
                            let plane = separating_plane_enough(&tri_shape, &id, shape, &pose, enough, 0.05, &hint);
                            assert!(plane.gap <= d.max(0.0) + 1e-15, "{what}: early plane {:e} above the distance (from {hint:?})", plane.gap);
                            assert!(
                                d <= 0.0 || plane.gap > enough || plane.gap >= 0.95 * d - 1e-11,
                                "{what}: early plane {:e} stopped short (from {hint:?})",
                                plane.gap
                            );
                        }
                    }
                    // The gap along the contact normal is the distance; along any other
                    // direction it is less.
                    let along = gap_along(&tri_shape, &id, shape, &pose, &n_world);
                    assert!(along <= d.max(0.0) + 1e-15 && along >= d - 1e-11, "{what}: gap along the normal {along:e}");
                    let other = Vector3::new(uniform(-1.0, 1.0), uniform(-1.0, 1.0), uniform(-1.0, 1.0)).normalize();
                    assert!(gap_along(&tri_shape, &id, shape, &pose, &other) <= d.max(0.0) + 1e-15, "{what}: gap along {other}");
                    if d < 0.0 {
                        assert!(may_intersect(&tri_shape, &id, shape, &pose), "{what}: may_intersect");
                    }
                }
            }
        }
    }
    assert_eq!(cases, 3 * 3 * 12 * 4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn triangle_box_agrees_with_gjk(
        corners in prop::array::uniform9(-1.5f64..1.5),
        half in prop::array::uniform3(0.05f64..0.8),
    ) {
        let tri = [
            Point3::new(corners[0], corners[1], corners[2]),
            Point3::new(corners[3], corners[4], corners[5]),
            Point3::new(corners[6], corners[7], corners[8]),
        ];
        let h = Vector3::from(half);
        let gjk_distance = |grow: f64| {
            let cuboid = Cuboid { half_extents: h.add_scalar(grow) };
            closest_points(&TriangleShape(&tri), &Isometry3::identity(), &cuboid, &Isometry3::identity()).distance
        };
        // Within 1e-7 of touching either answer is right; outside that band they must agree.
        if gjk_distance(-1e-7) == 0.0 {
            prop_assert!(triangle_box_overlap(&tri, &h));
        }
        if gjk_distance(1e-7) > 0.0 {
            prop_assert!(!triangle_box_overlap(&tri, &h));
        }
    }
}
