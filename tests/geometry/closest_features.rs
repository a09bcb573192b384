//! Lin–Canny closest features (Lin 1993) against GJK and a brute-force distance over
//! the hull triangles: random polytope pairs (apart, a hair apart, overlapping),
//! coherence of warm starts, and degenerate shapes (parallel faces, polygons and
//! vertices with many edges, duplicate and coplanar points).
use ccd_guard::math::{Isometry3, Point3, Real, Translation3, UnitQuaternion, Vector3};
use ccd_guard::query::closest_features::{
    ClosestFeatures, ConvexPolyhedron, Feature, FeaturePair, WarmStart, closest_features, closest_features_cached, fallback_count,
};
use ccd_guard::query::gjk;
use std::f64::consts::PI;

use crate::common::rng::SplitMix64;

/// This file's draws, on the shared splitmix64 ([`SplitMix64`]).
impl SplitMix64 {
    fn rotation(&mut self) -> UnitQuaternion {
        UnitQuaternion::from_scaled_axis(self.unit() * self.range(0.0, PI))
    }
    fn index(&mut self, n: usize) -> usize {
        ((self.f() * n as f64) as usize).min(n - 1)
    }
}

/// Random clouds of several kinds: in a box, on an ellipsoid, in a flat slab.
fn random_cloud(rng: &mut SplitMix64) -> Vec<Point3> {
    let n = 4 + rng.index(57);
    let axes = Vector3::new(rng.range(0.05, 0.5), rng.range(0.05, 0.5), rng.range(0.05, 0.5));
    let kind = rng.index(3);
    (0..n)
        .map(|_| {
            let v = match kind {
                0 => Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                1 => rng.unit(),
                _ => Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-0.1, 0.1)),
            };
            Point3::from(v.component_mul(&axes))
        })
        .collect()
}

fn pose(t: Vector3, r: UnitQuaternion) -> Isometry3 {
    Isometry3::from_parts(Translation3::from(t), r)
}

// ---- brute force over parry's hull triangles (independent of our face merging) ----

/// parry's hull triangles of a cloud, placed by `pose`. The cloud is whitened first
/// (an affine map to unit covariance; hulls are affine-invariant) because parry takes
/// thin clouds for flat.
fn hull_triangles(points: &[Point3], pose: &Isometry3) -> (Vec<Point3>, Vec<[usize; 3]>) {
    let n = points.len() as Real;
    let c = points.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / n;
    let cov = points.iter().fold(nalgebra::Matrix3::zeros(), |s, p| s + (p.coords - c) * (p.coords - c).transpose()) / n;
    let w = cov.try_inverse().unwrap().cholesky().unwrap().l().transpose();
    let white: Vec<parry3d_f64::math::Vector> = points
        .iter()
        .map(|p| {
            let x = w * (p.coords - c);
            parry3d_f64::math::Vector::new(x.x, x.y, x.z)
        })
        .collect();
    let (v, t) = parry3d_f64::transformation::convex_hull(&white);
    let w_inv = w.try_inverse().unwrap();
    let v = v.iter().map(|p| pose * Point3::from(w_inv * Vector3::new(p.x, p.y, p.z) + c)).collect();
    (v, t.iter().map(|t| [t[0] as usize, t[1] as usize, t[2] as usize]).collect())
}

fn point_segment(p: &Point3, a: &Point3, b: &Point3) -> Real {
    let e = b - a;
    let t = ((p - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
    (p - (a + e * t)).norm()
}

/// Minimum over the endpoint-to-segment distances and, when it lies inside both
/// segments, the lines' common perpendicular.
fn segment_segment(a0: &Point3, a1: &Point3, b0: &Point3, b1: &Point3) -> Real {
    let mut d = point_segment(a0, b0, b1).min(point_segment(a1, b0, b1)).min(point_segment(b0, a0, a1)).min(point_segment(b1, a0, a1));
    let (u, v, w) = (a1 - a0, b1 - b0, a0 - b0);
    let (uu, uv, vv, uw, vw) = (u.dot(&u), u.dot(&v), v.dot(&v), u.dot(&w), v.dot(&w));
    let den = uu * vv - uv * uv;
    if den > 1e-18 * uu * vv {
        let s = (uv * vw - vv * uw) / den;
        let t = (uu * vw - uv * uw) / den;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            d = d.min(((a0 + u * s) - (b0 + v * t)).norm());
        }
    }
    d
}

fn point_triangle(p: &Point3, t: [&Point3; 3]) -> Real {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let inside = (0..3).all(|i| (t[(i + 1) % 3] - t[i]).cross(&(p - t[i])).dot(&n) >= 0.0);
    if inside && n.norm() > 0.0 {
        return (p - t[0]).dot(&n).abs() / n.norm();
    }
    (0..3).map(|i| point_segment(p, t[i], t[(i + 1) % 3])).fold(Real::INFINITY, Real::min)
}

/// Exact distance of two separated hulls: min over vertex–triangle and edge–edge pairs.
fn brute_distance(pa: &[Point3], pose_a: &Isometry3, pb: &[Point3], pose_b: &Isometry3) -> Real {
    let (va, ta) = hull_triangles(pa, pose_a);
    let (vb, tb) = hull_triangles(pb, pose_b);
    let edges = |t: &[[usize; 3]]| -> Vec<(usize, usize)> {
        let mut e: Vec<(usize, usize)> = t.iter().flat_map(|t| (0..3).map(move |i| (t[i].min(t[(i + 1) % 3]), t[i].max(t[(i + 1) % 3])))).collect();
        e.sort_unstable();
        e.dedup();
        e
    };
    let mut d = Real::INFINITY;
    for (v, (w, t)) in [(&va, (&vb, &tb)), (&vb, (&va, &ta))] {
        for p in v {
            for tri in t {
                d = d.min(point_triangle(p, [&w[tri[0]], &w[tri[1]], &w[tri[2]]]));
            }
        }
    }
    for (a0, a1) in edges(&ta) {
        for &(b0, b1) in &edges(&tb) {
            d = d.min(segment_segment(&va[a0], &va[a1], &vb[b0], &vb[b1]));
        }
    }
    d
}

// ---- checks shared by the tests ----

/// Moves B along the closest points' line so that case `case % 5` is a pair
/// overlapping by 1 µm (1), well apart (2), apart by at most 1 µm (3), overlapping by at
/// most 0.1 µm (4), or as placed (0).
fn move_to_gap(case: usize, cp: &gjk::ClosestPoints, rng: &mut SplitMix64, pb: &mut Isometry3) {
    let shift = match case % 5 {
        1 if cp.distance > 0.0 => Some(cp.distance - 1e-6),
        2 if cp.distance > 0.0 => Some(cp.distance + rng.range(1e-3, 0.1)),
        3 if cp.distance > 0.0 => Some(cp.distance + rng.range(1e-9, 1e-6)),
        4 if cp.distance > 0.0 => Some(cp.distance - rng.range(1e-9, 1e-7)),
        _ => None,
    };
    if let Some(s) = shift {
        let nn = (cp.point_b - cp.point_a) / cp.distance;
        pb.translation.vector -= nn * s;
    }
}

fn gjk_distance(a: &ConvexPolyhedron, pa: &Isometry3, b: &ConvexPolyhedron, pb: &Isometry3) -> Real {
    gjk::closest_points(a, pa, b, pb).distance
}

/// Max height of a world point above the faces of a placed polyhedron.
fn outside(poly: &ConvexPolyhedron, pose: &Isometry3, x: &Point3) -> Real {
    let l = pose.inverse_transform_point(x);
    (0..poly.face_count() as u32)
        .map(|f| {
            let (n, d) = poly.face_plane(f);
            n.dot(&l.coords) - d
        })
        .fold(Real::NEG_INFINITY, Real::max)
}

/// The answer agrees with GJK, its points lie on the bodies and realise the distance,
/// and penetration is flagged exactly when GJK finds the bodies touching.
fn check(label: &str, r: &ClosestFeatures, a: &ConvexPolyhedron, pa: &Isometry3, b: &ConvexPolyhedron, pb: &Isometry3) {
    let g = gjk_distance(a, pa, b, pb);
    assert!(!r.fallback, "{label}: the walk fell back ({} steps)", r.steps);
    assert!((r.distance - g).abs() <= 1e-9, "{label}: distance {} vs gjk {g} ({:?})", r.distance, r.features);
    if r.penetrating {
        assert!(g <= 1e-12, "{label}: flagged penetrating but gjk says {g}");
    } else {
        assert!(g > 0.0 || r.distance <= 1e-12, "{label}: gjk says touching, walk says {}", r.distance);
        assert!(((r.point_a - r.point_b).norm() - r.distance).abs() <= 1e-12, "{label}: points do not realise the distance");
        for (poly, pose, x) in [(a, pa, &r.point_a), (b, pb, &r.point_b)] {
            assert!(outside(poly, pose, x).abs() <= 1e-9, "{label}: nearest point off the surface by {}", outside(poly, pose, x));
        }
    }
}

fn random_feature(rng: &mut SplitMix64, p: &ConvexPolyhedron) -> Feature {
    match rng.index(3) {
        0 => Feature::Vertex(rng.index(p.vertex_count()) as u32),
        1 => Feature::Edge(rng.index(p.edge_count()) as u32),
        _ => Feature::Face(rng.index(p.face_count()) as u32),
    }
}

fn kind(f: Feature) -> usize {
    match f {
        Feature::Vertex(_) => 0,
        Feature::Edge(_) => 1,
        Feature::Face(_) => 2,
    }
}

#[test]
fn random_pairs_match_gjk_and_brute_force() {
    let mut rng = SplitMix64::new(0x5eed_0001);
    let mut kinds = [[0usize; 3]; 3];
    let mut skew_edge_pairs = 0;
    let (mut apart, mut close, mut overlapping) = (0, 0, 0);
    let mut max_cold_steps = 0;
    // Release builds (as CI runs them) take every case; debug builds a tenth.
    let cases = if cfg!(debug_assertions) { 240 } else { 2400 };
    for case in 0..cases {
        let (ca, cb) = (random_cloud(&mut rng), random_cloud(&mut rng));
        let hull = |c: &[Point3]| ConvexPolyhedron::from_points(c).unwrap_or_else(|e| panic!("case {case}: {e} for {c:?}"));
        let (a, b) = (hull(&ca), hull(&cb));
        let pa = pose(Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)), rng.rotation());
        let mut pb = pose(pa.translation.vector + rng.unit() * rng.range(0.3, 1.5), rng.rotation());
        let cp = gjk::closest_points(&a, &pa, &b, &pb);
        // Move B along the separating direction: a hair apart or overlapping.
        let shift = match case % 4 {
            1 if cp.distance > 0.0 => Some(cp.distance - 1e-6),
            2 if cp.distance > 0.0 => Some(cp.distance + rng.range(1e-3, 0.1)),
            _ => None,
        };
        if let Some(s) = shift {
            let n = (cp.point_b - cp.point_a) / cp.distance;
            pb.translation.vector -= n * s;
        }
        let label = format!("case {case}");
        let cold = closest_features(&a, &pa, &b, &pb, None);
        check(&label, &cold, &a, &pa, &b, &pb);
        max_cold_steps = max_cold_steps.max(cold.steps);
        let start = FeaturePair { a: random_feature(&mut rng, &a), b: random_feature(&mut rng, &b) };
        let warm = closest_features(&a, &pa, &b, &pb, Some(start));
        check(&format!("{label} from {start:?}"), &warm, &a, &pa, &b, &pb);
        assert_eq!(cold.penetrating, warm.penetrating, "{label}");
        if cold.penetrating {
            overlapping += 1;
            continue;
        }
        let brute = brute_distance(&ca, &pa, &cb, &pb);
        assert!((cold.distance - brute).abs() <= 1e-9, "{label}: {} vs brute force {brute}", cold.distance);
        if cold.distance < 1e-5 {
            close += 1;
        } else {
            apart += 1;
        }
        kinds[kind(cold.features.a)][kind(cold.features.b)] += 1;
        if let (Feature::Edge(ea), Feature::Edge(eb)) = (cold.features.a, cold.features.b) {
            let dir = |p: &ConvexPolyhedron, pose: &Isometry3, e: u32| {
                let (t, h) = p.edge(e);
                pose * (p.vertices()[h as usize] - p.vertices()[t as usize]).normalize()
            };
            if dir(&a, &pa, ea).cross(&dir(&b, &pb, eb)).norm() > 1e-3 {
                skew_edge_pairs += 1;
            }
        }
    }
    println!(
        "apart {apart}, a hair apart {close}, overlapping {overlapping}; final kinds (V,E,F)x(V,E,F) {kinds:?}; skew E-E {skew_edge_pairs}; max cold steps {max_cold_steps}"
    );
    let tenth = cases / 10;
    assert!(apart > 3 * tenth && close > tenth * 3 / 2 && overlapping > tenth * 3 / 2, "{apart} {close} {overlapping}");
    // The brute-force comparison covers every kind of final pair, skew edges included.
    assert!(skew_edge_pairs >= tenth / 2, "{skew_edge_pairs}");
    assert!(kinds[0][2] >= tenth / 5 && kinds[2][0] >= tenth / 5 && kinds[0][1] + kinds[1][0] >= tenth / 10, "{kinds:?}");
    // No query in this process (tests run side by side) hit the step cap or cycled.
    assert_eq!(fallback_count(), 0);
}

// ---- coherence ----

/// Points spread evenly over a sphere (Fibonacci spiral), a tessellated sphere's hull.
fn sphere(n: usize, radius: Real) -> ConvexPolyhedron {
    let golden = PI * (3.0 - 5f64.sqrt());
    let points: Vec<Point3> = (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as Real + 0.5) / n as Real;
            let r = (1.0 - z * z).sqrt();
            let phi = golden * i as Real;
            Point3::new(r * phi.cos(), r * phi.sin(), z) * radius
        })
        .collect();
    ConvexPolyhedron::from_points(&points).unwrap()
}

struct Run {
    warm: f64,
    cached: f64,
    cold: f64,
}

/// Two spheres turning by `degrees` per step about different axes for a full turn:
/// mean steps of warm starts (from the last features, and from the cache) and of cold
/// starts, every answer checked against GJK.
fn turning_spheres(n: usize, degrees: Real) -> Run {
    let (a, b) = (sphere(n, 0.5), sphere(n, 0.4));
    let steps = (360.0 / degrees) as usize;
    let (ra, rb) = (Vector3::new(0.3, 1.0, 0.2).normalize(), Vector3::new(-0.5, 0.1, 1.0).normalize());
    let (mut warm, mut cached, mut cold) = (0usize, 0usize, 0usize);
    let mut last: Option<FeaturePair> = None;
    let mut cache = WarmStart::new();
    for i in 0..steps {
        let angle = (i as Real * degrees).to_radians();
        let pa = pose(Vector3::zeros(), UnitQuaternion::from_scaled_axis(ra * angle));
        let pb = pose(Vector3::new(0.95, 0.1, 0.0), UnitQuaternion::from_scaled_axis(rb * angle));
        let w = closest_features(&a, &pa, &b, &pb, last);
        let c = closest_features_cached(&a, &pa, &b, &pb, &mut cache);
        let k = closest_features(&a, &pa, &b, &pb, None);
        for (label, r) in [("warm", &w), ("cached", &c), ("cold", &k)] {
            check(&format!("{n} vertices, step {i}, {label}"), r, &a, &pa, &b, &pb);
        }
        if i > 0 {
            warm += w.steps;
            cached += c.steps;
            cold += k.steps;
        }
        last = Some(w.features);
    }
    let m = (steps - 1) as f64;
    Run { warm: warm as f64 / m, cached: cached as f64 / m, cold: cold as f64 / m }
}

#[test]
fn warm_starts_take_few_steps_under_coherence() {
    for n in [20, 200, 2000] {
        let r = turning_spheres(n, 1.0);
        println!("sphere of {n} vertices, 1 degree per step: mean steps warm {:.2}, cached {:.2}, cold {:.2}", r.warm, r.cached, r.cold);
        assert!(r.warm <= 3.0 && r.cached <= 3.0, "{n}: warm {} cached {}", r.warm, r.cached);
        assert!(r.cold > 2.0 * r.cached, "{n}: cold {} vs cached {}", r.cold, r.cached);
    }
}

// ---- degenerate shapes ----

fn cuboid_points(h: Vector3) -> Vec<Point3> {
    let mut p = Vec::new();
    for i in 0..8 {
        let s = |k: usize| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
        p.push(Point3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z));
    }
    p
}

fn prism_points(sides: usize, radius: Real, half_height: Real) -> Vec<Point3> {
    let mut p = Vec::new();
    for i in 0..sides {
        let phi = 2.0 * PI * i as Real / sides as Real;
        for z in [-half_height, half_height] {
            p.push(Point3::new(radius * phi.cos(), radius * phi.sin(), z));
        }
    }
    p
}

fn cone_points(sides: usize, radius: Real, height: Real) -> Vec<Point3> {
    let mut p: Vec<Point3> = (0..sides)
        .map(|i| {
            let phi = 2.0 * PI * i as Real / sides as Real;
            Point3::new(radius * phi.cos(), radius * phi.sin(), 0.0)
        })
        .collect();
    p.push(Point3::new(0.0, 0.0, height));
    p
}

/// Random relative poses of two shapes, each query cold and warm started from the
/// previous answer, against GJK.
fn random_poses(label: &str, a: &ConvexPolyhedron, b: &ConvexPolyhedron, count: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut last = None;
    for i in 0..count {
        let pa = pose(Vector3::zeros(), rng.rotation());
        let pb = pose(rng.unit() * rng.range(0.2, 2.0), rng.rotation());
        for start in [None, last] {
            let r = closest_features(a, &pa, b, &pb, start);
            check(&format!("{label} {i} from {start:?}"), &r, a, &pa, b, &pb);
            last = Some(r.features);
        }
    }
}

#[test]
fn box_on_box_parallel_faces() {
    let a = ConvexPolyhedron::from_points(&cuboid_points(Vector3::new(0.5, 0.4, 0.3))).unwrap();
    let b = ConvexPolyhedron::from_points(&cuboid_points(Vector3::new(0.2, 0.3, 0.1))).unwrap();
    assert_eq!((a.vertex_count(), a.edge_count(), a.face_count(), a.polygon_count()), (8, 12, 6, 6));
    let mut last = None;
    for i in 0..200 {
        // B rests 0.05 above A's top face, sliding and turning about z; from i = 100 on
        // it slides off the edge (face over edge, then edge over edge).
        let x = -0.4 + 0.01 * i as Real;
        let pb = pose(Vector3::new(x, 0.1, 0.3 + 0.1 + 0.05), UnitQuaternion::from_scaled_axis(Vector3::z() * (0.3 * i as Real).to_radians()));
        let pa = Isometry3::identity();
        let r = closest_features(&a, &pa, &b, &pb, last);
        check(&format!("box on box {i}"), &r, &a, &pa, &b, &pb);
        if x < 0.3 {
            assert!((r.distance - 0.05).abs() < 1e-12, "{i}: {}", r.distance);
        }
        if i > 0 {
            assert!(r.steps <= 4, "{i}: {} steps", r.steps);
        }
        last = Some(r.features);
    }
    random_poses("boxes", &a, &b, 300, 11);
}

#[test]
fn duplicate_and_coplanar_points() {
    // A box given with every corner three times, edge midpoints and face centres.
    let h = Vector3::new(0.3, 0.2, 0.1);
    let mut points = cuboid_points(h);
    points.extend(cuboid_points(h));
    points.extend(cuboid_points(h));
    for axis in 0..3 {
        for s in [-1.0, 1.0] {
            let mut c = Vector3::zeros();
            c[axis] = s * h[axis];
            points.push(Point3::from(c));
        }
    }
    let corners = cuboid_points(h);
    for i in 0..8 {
        for j in i + 1..8 {
            if (corners[i] - corners[j]).iter().filter(|c| c.abs() > 0.0).count() == 1 {
                points.push(nalgebra::center(&corners[i], &corners[j]));
            }
        }
    }
    let p = ConvexPolyhedron::from_points(&points).unwrap();
    assert_eq!((p.vertex_count(), p.edge_count(), p.face_count()), (8, 12, 6));
    random_poses("box with extra points", &p, &p, 200, 12);
    // Flat, collinear, coincident and non-finite clouds, and too few points.
    let flat: Vec<Point3> = (0..20).map(|i| Point3::new((i % 5) as Real, (i / 5) as Real, 0.0)).collect();
    assert!(ConvexPolyhedron::from_points(&flat).is_err());
    let line: Vec<Point3> = (0..5).map(|i| Point3::new(i as Real, 2.0 * i as Real, 0.0)).collect();
    assert!(ConvexPolyhedron::from_points(&line).is_err());
    assert!(ConvexPolyhedron::from_points(&[Point3::new(1.0, 2.0, 3.0); 6]).is_err());
    assert!(ConvexPolyhedron::from_points(&corners[..3]).is_err());
    let mut nan = corners.clone();
    nan[2].y = Real::NAN;
    assert!(ConvexPolyhedron::from_points(&nan).is_err());
}

#[test]
fn cylinder_with_64_gon_caps() {
    let cyl = ConvexPolyhedron::from_points(&prism_points(64, 0.3, 0.2)).unwrap();
    // 64 sides + 2 caps, each cap cut into 31 faces of at most four sides.
    assert_eq!((cyl.vertex_count(), cyl.edge_count(), cyl.polygon_count(), cyl.face_count()), (128, 192, 66, 64 + 62));
    for f in 0..cyl.face_count() as u32 {
        assert!(cyl.face_vertices(f).count() <= 5);
    }
    let b = ConvexPolyhedron::from_points(&cuboid_points(Vector3::new(0.05, 0.05, 0.05))).unwrap();
    // A small box gliding over the cap, warm started: it crosses the cap's pieces.
    let mut last = None;
    let mut total = 0;
    for i in 0..=120 {
        let x = -0.25 + 0.5 * i as Real / 120.0;
        let pb = pose(Vector3::new(x, 0.1, 0.2 + 0.05 + 0.01), UnitQuaternion::from_scaled_axis(Vector3::z() * 0.2));
        let r = closest_features(&cyl, &Isometry3::identity(), &b, &pb, last);
        check(&format!("box over cap {i}"), &r, &cyl, &Isometry3::identity(), &b, &pb);
        assert!((r.distance - 0.01).abs() < 1e-12, "{i}: {}", r.distance);
        if i > 0 {
            total += r.steps;
        }
        last = Some(r.features);
    }
    assert!(total <= 3 * 120, "{total} steps over 120 moves");
    random_poses("cylinder-box", &cyl, &b, 300, 13);
    random_poses("cylinder-cylinder", &cyl, &cyl, 300, 14);
}

#[test]
fn cone_apex_with_64_edges() {
    let cone = ConvexPolyhedron::from_points(&cone_points(64, 0.3, 0.5)).unwrap();
    let apex = cone.vertices().iter().position(|v| v.z > 0.4).unwrap() as u32;
    assert_eq!(cone.vertex_edges(apex).len(), 64);
    let b = ConvexPolyhedron::from_points(&cuboid_points(Vector3::new(0.1, 0.1, 0.1))).unwrap();
    // A box circling over the apex: the closest pair stays at the apex, in one
    // sub-cell of its cone after another.
    let mut last = None;
    for i in 0..360 {
        let phi = (i as Real).to_radians();
        let pb = pose(Vector3::new(0.3 * phi.cos(), 0.3 * phi.sin(), 0.9), UnitQuaternion::from_scaled_axis(Vector3::new(0.2, 0.1, phi)));
        let r = closest_features(&cone, &Isometry3::identity(), &b, &pb, last);
        check(&format!("box over apex {i}"), &r, &cone, &Isometry3::identity(), &b, &pb);
        if i > 0 {
            assert!(r.steps <= 6, "{i}: {} steps", r.steps);
        }
        last = Some(r.features);
    }
    random_poses("cone-box", &cone, &b, 300, 15);
    random_poses("cone-cone", &cone, &cone, 300, 16);
}

#[test]
fn uv_sphere_poles_and_quads() {
    // Lat-long sphere: quads (merged from triangle pairs) and two poles of degree 32.
    let (rings, sectors) = (12, 32);
    let mut points = vec![Point3::new(0.0, 0.0, 0.4), Point3::new(0.0, 0.0, -0.4)];
    for i in 1..rings {
        let theta = PI * i as Real / rings as Real;
        for j in 0..sectors {
            let phi = 2.0 * PI * j as Real / sectors as Real;
            points.push(Point3::new(0.4 * theta.sin() * phi.cos(), 0.4 * theta.sin() * phi.sin(), 0.4 * theta.cos()));
        }
    }
    let s = ConvexPolyhedron::from_points(&points).unwrap();
    assert_eq!(s.polygon_count(), sectors * rings);
    random_poses("uv spheres", &s, &s, 300, 17);
}

/// Two 64-gon caps (cut into pieces, §2.8) facing each other 19 nm apart with a thin
/// overlap: without the flare (§2.7) the walk flips between coplanar pieces and
/// falls back; with it, every start settles.
#[test]
fn flared_cells_settle_between_coplanar_pieces() {
    let cyl = ConvexPolyhedron::from_points(&prism_points(64, 0.3, 0.2)).unwrap();
    let cone = ConvexPolyhedron::from_points(&cone_points(64, 0.3, 0.5)).unwrap();
    let pa = pose(Vector3::zeros(), UnitQuaternion::from_scaled_axis(Vector3::z() * (3.0 * PI / 4.0)));
    let pb = pose(Vector3::new(0.5901608537991766, -0.105663386914951, 0.2000000015398418), UnitQuaternion::from_scaled_axis(Vector3::z() * (5.0 * PI / 4.0)));
    let g = gjk_distance(&cyl, &pa, &cone, &pb);
    assert!(g > 1e-8 && g < 3e-8, "{g}");
    let mut count = 0;
    for fa in 0..cyl.face_count() as u32 {
        for eb in (0..cone.edge_count() as u32).step_by(if cfg!(debug_assertions) { 5 } else { 1 }) {
            let start = FeaturePair { a: Feature::Face(fa), b: Feature::Edge(eb) };
            let r = closest_features(&cyl, &pa, &cone, &pb, Some(start));
            check(&format!("from {start:?}"), &r, &cyl, &pa, &cone, &pb);
            count += 1;
        }
    }
    assert!(count >= cyl.face_count() * cone.edge_count() / 5);
}

// ---- long runs (`cargo test --release --test geometry closest_features -- --ignored`;
// STRESS_N cases, STRESS_SEED) ----

/// Like `random_pairs_match_gjk_and_brute_force` without brute force, more cases and
/// two more distance bands (overlap by up to 1 µm, gaps of 1 nm..0.1 µm).
#[test]
#[ignore]
fn stress_random_pairs() {
    let n: usize = std::env::var("STRESS_N").ok().and_then(|s| s.parse().ok()).unwrap_or(20000);
    let seed: u64 = std::env::var("STRESS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(99);
    let mut rng = SplitMix64::new(seed);
    let (mut fb, mut bad, mut badpen, mut maxerr) = (0, 0, 0, 0.0f64);
    for case in 0..n {
        let (ca, cb) = (random_cloud(&mut rng), random_cloud(&mut rng));
        let (Ok(a), Ok(b)) = (ConvexPolyhedron::from_points(&ca), ConvexPolyhedron::from_points(&cb)) else {
            println!("hull err {case}");
            continue;
        };
        let pa = pose(Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)), rng.rotation());
        let mut pb = pose(pa.translation.vector + rng.unit() * rng.range(0.3, 1.5), rng.rotation());
        let cp = gjk::closest_points(&a, &pa, &b, &pb);
        move_to_gap(case, &cp, &mut rng, &mut pb);
        let g = gjk_distance(&a, &pa, &b, &pb);
        for start in [None, Some(FeaturePair { a: random_feature(&mut rng, &a), b: random_feature(&mut rng, &b) })] {
            let r = closest_features(&a, &pa, &b, &pb, start);
            if r.fallback {
                fb += 1;
                println!("fallback case {case} from {start:?} after {} steps, gjk {g}", r.steps);
            }
            let err = (r.distance - g).abs();
            maxerr = maxerr.max(err);
            if err > 1e-9 {
                bad += 1;
                println!("bad case {case} start {start:?}: {} vs {g}", r.distance);
            }
            if r.penetrating != (g <= 0.0) && g >= 1e-12 {
                badpen += 1;
                println!("penetration flag wrong, case {case}: {} vs gjk {g}", r.penetrating);
            }
        }
    }
    println!("fallbacks {fb} bad {bad} badpen {badpen} maxerr {maxerr:e}");
    assert_eq!(fb + bad + badpen, 0);
}

/// Boxes, prisms (6- and 64-gon), a cone with a 64-edge apex, a UV sphere and a
/// Fibonacci sphere in random and axis-aligned poses (parallel faces), at the same
/// distance bands, cold, from random pairs and from the previous answer.
#[test]
#[ignore]
fn stress_shapes() {
    let n: usize = std::env::var("STRESS_N").ok().and_then(|s| s.parse().ok()).unwrap_or(20000);
    let seed: u64 = std::env::var("STRESS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(99);
    let uv = {
        let (rings, sectors) = (12, 32);
        let mut points = vec![Point3::new(0.0, 0.0, 0.4), Point3::new(0.0, 0.0, -0.4)];
        for i in 1..rings {
            let theta = PI * i as Real / rings as Real;
            for j in 0..sectors {
                let phi = 2.0 * PI * j as Real / sectors as Real;
                points.push(Point3::new(0.4 * theta.sin() * phi.cos(), 0.4 * theta.sin() * phi.sin(), 0.4 * theta.cos()));
            }
        }
        points
    };
    let shapes: Vec<ConvexPolyhedron> = vec![
        ConvexPolyhedron::from_points(&cuboid_points(Vector3::new(0.3, 0.2, 0.1))).unwrap(),
        ConvexPolyhedron::from_points(&cuboid_points(Vector3::new(0.2, 0.2, 0.2))).unwrap(),
        ConvexPolyhedron::from_points(&prism_points(64, 0.3, 0.2)).unwrap(),
        ConvexPolyhedron::from_points(&prism_points(6, 0.3, 0.2)).unwrap(),
        ConvexPolyhedron::from_points(&cone_points(64, 0.3, 0.5)).unwrap(),
        ConvexPolyhedron::from_points(&uv).unwrap(),
        sphere(200, 0.3),
    ];
    let mut rng = SplitMix64::new(seed);
    let (mut fb, mut bad, mut badpen, mut maxerr) = (0, 0, 0, 0.0f64);
    let mut last: Option<FeaturePair> = None;
    for case in 0..n {
        let (ia, ib) = (rng.index(shapes.len()), rng.index(shapes.len()));
        let (a, b) = (&shapes[ia], &shapes[ib]);
        let aligned = rng.index(3) == 0;
        let ra = if aligned { UnitQuaternion::from_scaled_axis(Vector3::z() * (rng.index(8) as Real * PI / 4.0)) } else { rng.rotation() };
        let rb = if aligned { UnitQuaternion::from_scaled_axis(Vector3::z() * (rng.index(8) as Real * PI / 4.0)) } else { rng.rotation() };
        let dir = if aligned { [Vector3::x(), Vector3::y(), Vector3::z(), -Vector3::z()][rng.index(4)] + rng.unit() * rng.range(0.0, 0.3) } else { rng.unit() };
        let pa = pose(Vector3::zeros(), ra);
        let mut pb = pose(dir * rng.range(0.3, 1.2), rb);
        let cp = gjk::closest_points(a, &pa, b, &pb);
        move_to_gap(case, &cp, &mut rng, &mut pb);
        let g = gjk_distance(a, &pa, b, &pb);
        let starts = [None, Some(FeaturePair { a: random_feature(&mut rng, a), b: random_feature(&mut rng, b) }), if ia == ib { last } else { None }];
        for start in starts {
            let r = closest_features(a, &pa, b, &pb, start);
            if r.fallback {
                fb += 1;
                println!("fallback case {case} shapes {ia} {ib} from {start:?} after {} steps, gjk {g}, poses {pa:?} {pb:?}", r.steps);
            }
            let err = (r.distance - g).abs();
            maxerr = maxerr.max(err);
            if err > 1e-9 {
                bad += 1;
                println!("bad case {case} shapes {ia} {ib} start {start:?}: {} vs {g}", r.distance);
            }
            if r.penetrating != (g <= 0.0) && g >= 1e-12 {
                badpen += 1;
                println!("penetration flag wrong, case {case}: {} vs gjk {g}", r.penetrating);
            }
            last = Some(r.features);
        }
    }
    println!("fallbacks {fb} bad {bad} badpen {badpen} maxerr {maxerr:e}");
    assert_eq!(fb + bad + badpen, 0);
}
