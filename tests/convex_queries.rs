//! GJK distances against closed forms, and the triangle-box separating-axis test
//! against GJK.
use ccd_guard::math::{Isometry3, Point3, Vector3};
use ccd_guard::query::gjk::closest_points;
use ccd_guard::query::intersection::{intersection_point, triangle_box_overlap};
use ccd_guard::shape::{Ball, Capsule, Cuboid, Cylinder, Shape, TriangleShape};
use proptest::prelude::*;

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
