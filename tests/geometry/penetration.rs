//! Penetration depth (Keerthi & Sridharan): the planar measures `I` and `D`
//! against hand-worked cases and brute force, and the 3D MTD (EPA) against closed
//! forms, the exact Minkowski-facet MTD and translations that must (not) separate.
use ccd_guard::math::{Isometry3, Point3, Real, Vector3};
use ccd_guard::query::gjk::{closest_points, intersects};
use ccd_guard::query::penetration::planar::{self, minkowski_difference};
use ccd_guard::query::penetration::{Penetration, VertexCloud, directional_depth, penetration_depth, polytope_penetration_exact};
use ccd_guard::shape::{Ball, Capsule, Cone, Cuboid, Cylinder, SupportMap};
use nalgebra::{Point2, Vector2};

use crate::common::rng::SplitMix64;

type P2 = Point2<f64>;
type V2 = Vector2<f64>;

/// This file's draws, on the shared splitmix64 ([`SplitMix64`]), so that cases are
/// reproducible.
impl SplitMix64 {
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    fn pose(&mut self, spread: f64) -> Isometry3 {
        let t = Vector3::new(self.range(-spread, spread), self.range(-spread, spread), self.range(-spread, spread));
        let axis = self.unit() * self.range(0.0, std::f64::consts::PI);
        Isometry3::new(t, axis)
    }
}

fn p2(x: f64, y: f64) -> P2 {
    P2::new(x, y)
}

fn square(x: f64, y: f64) -> Vec<P2> {
    vec![p2(x, y), p2(x + 1.0, y), p2(x + 1.0, y + 1.0), p2(x, y + 1.0)]
}

// ---------------------------------------------------------------------------------
// Planar measures (Keerthi & Sridharan)
// ---------------------------------------------------------------------------------

/// Keerthi & Sridharan gives no numeric example; these are worked by hand from its definitions.
#[test]
fn planar_hand_worked_cases() {
    // Two unit squares overlapping by 0.3 in x and 0.5 in y: A = [0,1]², B = A + (0.7, 0.5).
    let (a, b) = (square(0.0, 0.0), square(0.7, 0.5));
    let i = planar::translational_depth(&a, &b).expect("they overlap");
    assert!((i.depth - 0.3).abs() < 1e-15, "{i:?}");
    assert!((i.normal - V2::new(1.0, 0.0)).norm() < 1e-15, "{i:?}");
    // Along +x 0.3 separates; along +y 0.5; along -x B must pass all of A: 1.7.
    let d = |v: V2| planar::directional_depth(&a, &b, &v).expect("line meets");
    assert!((d(V2::new(1.0, 0.0)) - 0.3).abs() < 1e-15);
    assert!((d(V2::new(0.0, 1.0)) - 0.5).abs() < 1e-15);
    assert!((d(V2::new(-1.0, 0.0)) - 1.7).abs() < 1e-15);
    assert!((d(V2::new(0.0, -1.0)) - 1.5).abs() < 1e-15);
    // Diagonal: x frees after 0.3·√2 (y would need 0.5·√2).
    let diag = V2::new(1.0, 1.0) / 2f64.sqrt();
    assert!((d(diag) - 0.3 * 2f64.sqrt()).abs() < 1e-15);
    // Lemma 1(ii) D(d;A,B) = D(-d;B,A) and (iii) D(αd) = D(d)/α.
    assert!((planar::directional_depth(&b, &a, &-diag).unwrap() - d(diag)).abs() < 1e-15);
    assert!((d(diag * 4.0) - d(diag) / 4.0).abs() < 1e-15);
    // The difference is the square [-1.7, 0.3] x [-1.5, 0.5]: merging 4 + 4 parallel
    // edges gives 4 edges.
    let m = minkowski_difference(&a, &b).unwrap();
    assert_eq!(m.vertices.len(), 4);
    assert_eq!(m.vertices[0], p2(-1.7, -1.5));

    // A triangle and a square: A = (0,0), (4,0), (0,4). B = [1,2]² lies inside A, its
    // corner (2,2) on the hypotenuse x + y = 4: to leave A it must go out whole, by √2
    // along (1,1)/√2 (its corner (1,1) to the hypotenuse) against 2 to the left or down.
    let t = vec![p2(0.0, 0.0), p2(4.0, 0.0), p2(0.0, 4.0)];
    let diag = V2::new(1.0, 1.0) / 2f64.sqrt();
    let i = planar::translational_depth(&t, &square(1.0, 1.0)).unwrap();
    assert!((i.depth - 2f64.sqrt()).abs() < 1e-15, "{i:?}");
    assert!((i.normal - diag).norm() < 1e-15);
    // B = [3,4] x [0.5,1.5] pokes through the hypotenuse by its corner (3, 0.5), where
    // x + y = 3.5: I = 0.5/√2 along (1,1)/√2; along +x or +y it needs 0.5, down 1.5.
    let b = vec![p2(3.0, 0.5), p2(4.0, 0.5), p2(4.0, 1.5), p2(3.0, 1.5)];
    let i = planar::translational_depth(&t, &b).unwrap();
    assert!((i.depth - 0.5 / 2f64.sqrt()).abs() < 1e-15, "{i:?}");
    assert!((i.normal - diag).norm() < 1e-15);
    let d = |v: V2| planar::directional_depth(&t, &b, &v).expect("line meets");
    assert!((d(V2::new(1.0, 0.0)) - 0.5).abs() < 1e-15);
    assert!((d(V2::new(0.0, 1.0)) - 0.5).abs() < 1e-15);
    assert!((d(V2::new(0.0, -1.0)) - 1.5).abs() < 1e-15);
    assert!((d(diag) - i.depth).abs() < 1e-15);
    // B = [2,3]² touches the hypotenuse from outside at (2,2): I = 0.
    let i = planar::translational_depth(&t, &square(2.0, 2.0)).unwrap();
    assert!(i.depth.abs() < 1e-15 && (i.normal - diag).norm() < 1e-15, "{i:?}");
    // Disjoint squares: no I; along -x the translates of B meet A up to β = -1 (B must
    // come back by 1 to touch); along y no translate meets A (the paper's -∞).
    let far = square(2.0, 0.0);
    assert!(planar::translational_depth(&a, &far).is_none());
    assert!((planar::directional_depth(&a, &far, &V2::new(1.0, 0.0)).unwrap() + 1.0).abs() < 1e-15);
    assert!(planar::directional_depth(&a, &far, &V2::new(0.0, 1.0)).is_none());
    // Clockwise input and repeated vertices give the same answers.
    let mut cw = square(0.7, 0.5);
    cw.reverse();
    cw.push(cw[0]);
    assert!((planar::translational_depth(&a, &cw).unwrap().depth - 0.3).abs() < 1e-15);
}

#[test]
fn planar_degenerate_input_does_not_panic() {
    let a = square(0.0, 0.0);
    let point = vec![p2(0.5, 0.5)];
    let seg = vec![p2(0.2, 0.5), p2(0.8, 0.5)];
    let i = planar::translational_depth(&a, &point).unwrap();
    assert!((i.depth - 0.5).abs() < 1e-15);
    let i = planar::translational_depth(&a, &seg).unwrap();
    assert!((i.depth - 0.5).abs() < 1e-15, "{i:?}");
    let i = planar::translational_depth(&point, &point).unwrap();
    assert_eq!(i.depth, 0.0);
    assert!(planar::translational_depth(&point, &[p2(1.0, 0.0)]).is_none());
    assert!(planar::translational_depth(&a, &[]).is_none());
    assert!(planar::translational_depth(&a, &[p2(f64::NAN, 0.0)]).is_none());
    assert!(planar::directional_depth(&a, &a, &V2::zeros()).is_none());
    let d = planar::directional_depth(&seg, &point, &V2::new(1.0, 0.0)).unwrap();
    assert!((d - 0.3).abs() < 1e-15, "{d}");
    let _ = planar::directional_depth(&seg, &seg, &V2::new(0.0, 1.0));
    // Non-convex input: some number, no panic.
    let bow = vec![p2(0.0, 0.0), p2(1.0, 1.0), p2(1.0, 0.0), p2(0.0, 1.0)];
    let _ = planar::translational_depth(&bow, &a);
    let _ = planar::directional_depth(&bow, &a, &V2::new(1.0, 2.0));
}

fn cross2(a: &V2, b: &V2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Monotone-chain hull, counter-clockwise, collinear points dropped.
fn hull2(points: &[P2]) -> Vec<P2> {
    let mut p = points.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let mut lower: Vec<P2> = Vec::new();
    for q in &p {
        while lower.len() >= 2 && cross2(&(lower[lower.len() - 1] - lower[lower.len() - 2]), &(q - lower[lower.len() - 1])) <= 0.0 {
            lower.pop();
        }
        lower.push(*q);
    }
    let mut upper: Vec<P2> = Vec::new();
    for q in p.iter().rev() {
        while upper.len() >= 2 && cross2(&(upper[upper.len() - 1] - upper[upper.len() - 2]), &(q - upper[upper.len() - 1])) <= 0.0 {
            upper.pop();
        }
        upper.push(*q);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// A random convex polygon: points on an ellipse, or the hull of random points.
fn random_polygon(rng: &mut SplitMix64) -> Vec<P2> {
    let c = V2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    let n = 3 + rng.below(14);
    if rng.below(2) == 0 {
        let (rx, ry, phi) = (rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.0, 6.3));
        let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, std::f64::consts::TAU)).collect();
        angles.sort_by(f64::total_cmp);
        angles.dedup();
        let (s, co) = phi.sin_cos();
        angles
            .iter()
            .map(|t| {
                let (x, y) = (rx * t.cos(), ry * t.sin());
                P2::from(c + V2::new(co * x - s * y, s * x + co * y))
            })
            .collect()
    } else {
        let pts: Vec<P2> = (0..n + 3).map(|_| P2::from(c + V2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)))).collect();
        hull2(&pts)
    }
}

#[test]
fn planar_measures_against_brute_force() {
    let mut rng = SplitMix64::new(0x5eed_0004);
    let (mut inside, mut checked_d, mut missed) = (0, 0, 0);
    let (mut worst_i, mut worst_d) = (0.0f64, 0.0f64);
    for case in 0..3000 {
        let (a, b) = (random_polygon(&mut rng), random_polygon(&mut rng));
        if a.len() < 3 || b.len() < 3 {
            continue;
        }
        let diffs: Vec<P2> = a.iter().flat_map(|p| b.iter().map(move |q| P2::from(p - q))).collect();
        let h = hull2(&diffs);
        let scale = h.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
        let k = h.len();
        let edges: Vec<(P2, V2)> = (0..k).map(|i| (h[i], h[(i + 1) % k] - h[i])).collect();
        // Signed distances of the origin to the edge lines, positive inside.
        let r: Vec<f64> = edges.iter().map(|(v, e)| cross2(&v.coords, e) / e.norm()).collect();
        let brute_i = r.iter().copied().fold(f64::INFINITY, f64::min);
        let got = planar::translational_depth(&a, &b);
        if brute_i > 1e-9 * scale {
            inside += 1;
            let got = got.unwrap_or_else(|| panic!("case {case}: origin inside by {brute_i}, got None"));
            let err = (got.depth - brute_i).abs() / brute_i.max(scale);
            worst_i = worst_i.max(err);
            assert!(err < 1e-12, "case {case}: I {} vs brute {brute_i}", got.depth);
            // The normal is the nearest edge's outward normal: B moved by depth·normal touches.
            let t = got.normal * got.depth;
            let moved: Vec<P2> = b.iter().map(|p| p + t).collect();
            assert!(planar::translational_depth(&a, &moved).is_none_or(|m| m.depth < 1e-12 * scale), "case {case}");
        } else if brute_i < -1e-9 * scale {
            assert!(got.is_none(), "case {case}: disjoint by {brute_i}, got {got:?}");
        }
        // D along random directions: the line {β d} clipped by the brute hull.
        for _ in 0..3 {
            let ang = rng.range(0.0, std::f64::consts::TAU);
            let d = V2::new(ang.cos(), ang.sin()) * rng.range(0.5, 2.0);
            let (mut lo, mut hi, mut miss) = (f64::NEG_INFINITY, f64::INFINITY, false);
            for (v, e) in &edges {
                let (ed, ev) = (cross2(e, &d), cross2(e, &v.coords));
                if ed < 0.0 {
                    hi = hi.min(ev / ed);
                } else if ed > 0.0 {
                    lo = lo.max(ev / ed);
                } else if ev > 0.0 {
                    miss = true;
                }
            }
            let got = planar::directional_depth(&a, &b, &d);
            let margin = (hi - lo) * d.norm();
            if miss || margin < -1e-9 * scale {
                missed += 1;
                assert!(got.is_none(), "case {case}: line misses, got {got:?}");
            } else if margin > 1e-9 * scale {
                checked_d += 1;
                let got = got.unwrap_or_else(|| panic!("case {case}: line meets, got None"));
                let err = (got - hi).abs() * d.norm() / scale;
                worst_d = worst_d.max(err);
                assert!(err < 1e-12, "case {case}: D {got} vs brute {hi}");
            }
        }
    }
    eprintln!("planar: {inside} intersecting pairs, I worst relative error {worst_i:.1e}; D {checked_d} rays ({missed} misses), worst {worst_d:.1e}");
    assert!(inside >= 2000 && checked_d >= 4000, "{inside} {checked_d}");
}

// ---------------------------------------------------------------------------------
// 3D: translational depth
// ---------------------------------------------------------------------------------

fn iso(x: f64, y: f64, z: f64, rx: f64, ry: f64, rz: f64) -> Isometry3 {
    Isometry3::new(Vector3::new(x, y, z), Vector3::new(rx, ry, rz))
}

fn shifted(pose: &Isometry3, t: &Vector3) -> Isometry3 {
    let mut p = *pose;
    p.translation.vector += t;
    p
}

fn finite(p: &Penetration) -> bool {
    p.depth.is_finite()
        && p.depth >= 0.0
        && p.normal.iter().chain(p.point_a.iter()).chain(p.point_b.iter()).all(|x| x.is_finite())
        && (p.normal.norm() - 1.0).abs() < 1e-12
}

/// The property that catches a wrong depth: B moved by (depth + 1e-9)·normal is apart,
/// by (depth − 1e-7)·normal still overlaps. Returns the gap after the first move.
fn check_translation(a: &dyn SupportMap, pa: &Isometry3, b: &dyn SupportMap, pb: &Isometry3, p: &Penetration, what: &str) -> Real {
    assert!(finite(p), "{what}: {p:?}");
    let apart = shifted(pb, &(p.normal * (p.depth + 1e-9)));
    let gap = closest_points(a, pa, b, &apart).distance;
    assert!(gap > 0.0 && !intersects(a, pa, b, &apart), "{what}: still touching after depth + 1e-9 ({p:?}, gap {gap:e})");
    if p.depth > 1e-7 {
        let inside = shifted(pb, &(p.normal * (p.depth - 1e-7)));
        assert!(intersects(a, pa, b, &inside), "{what}: apart after depth - 1e-7 ({p:?}, gap {:e})", closest_points(a, pa, b, &inside).distance);
    }
    // Witnesses: point_a - point_b = depth·normal.
    assert!((p.point_a - p.point_b - p.normal * p.depth).norm() < 1e-9, "{what}: witnesses {p:?}");
    gap
}

#[allow(clippy::too_many_arguments)]
fn expect_depth(
    a: &dyn SupportMap,
    pa: &Isometry3,
    b: &dyn SupportMap,
    pb: &Isometry3,
    depth: Real,
    normal: Option<Vector3>,
    tol: Real,
    what: &str,
) -> Penetration {
    let p = penetration_depth(a, pa, b, pb).unwrap_or_else(|| panic!("{what}: no penetration"));
    assert!((p.depth - depth).abs() <= tol, "{what}: depth {} expected {depth} (error {:e})", p.depth, p.depth - depth);
    if let Some(n) = normal {
        // Near a curved minimum the normal is as good as the square root of the depth.
        assert!((p.normal - n).norm() < tol.sqrt().max(1e-9), "{what}: normal {} expected {n}", p.normal);
    }
    check_translation(a, pa, b, pb, &p, what);
    p
}

#[test]
fn closed_form_depths() {
    // Two balls: r1 + r2 - |c1 - c2| along c2 - c1.
    let (b1, b2) = (Ball { radius: 0.5 }, Ball { radius: 0.3 });
    let c = Vector3::new(0.6, 0.2, -0.1);
    expect_depth(&b1, &iso(0.0, 0.0, 0.0, 0.3, 0.1, 0.0), &b2, &iso(c.x, c.y, c.z, 0.0, 1.0, 2.0), 0.8 - c.norm(), Some(c.normalize()), 1e-14, "balls");
    // Axis-aligned boxes: the least overlap over the axes (x: 0.15, y: 0.7, z: 0.35).
    let (x1, x2) = (Cuboid { half_extents: Vector3::new(0.5, 0.4, 0.3) }, Cuboid { half_extents: Vector3::new(0.2, 0.6, 0.25) });
    expect_depth(&x1, &Isometry3::identity(), &x2, &iso(0.55, 0.3, -0.2, 0.0, 0.0, 0.0), 0.15, Some(Vector3::x()), 1e-14, "boxes");
    expect_depth(&x1, &Isometry3::identity(), &x2, &iso(-0.1, -0.9, 0.05, 0.0, 0.0, 0.0), 0.1, Some(-Vector3::y()), 1e-14, "boxes y");
    // Ball into a box face: 1.5 - 1.3 along +z; rotated about z the same.
    let unit = Cuboid { half_extents: Vector3::new(1.0, 1.0, 1.0) };
    let ball = Ball { radius: 0.5 };
    expect_depth(&unit, &iso(0.0, 0.0, 0.0, 0.0, 0.0, 0.7), &ball, &iso(0.0, 0.2, 1.3, 0.0, 0.0, 0.0), 0.2, Some(Vector3::z()), 1e-14, "ball-box face");
    // Ball centre inside the box: out through the nearest face (x: 1 - 0.8 + 0.5).
    expect_depth(&unit, &Isometry3::identity(), &ball, &iso(0.8, 0.1, -0.3, 0.0, 0.0, 0.0), 0.7, Some(Vector3::x()), 1e-12, "ball in box");
    // Box against ball (order swapped): normal from A (ball) to B (box).
    expect_depth(&ball, &iso(0.0, 0.2, 1.3, 0.0, 0.0, 0.0), &unit, &Isometry3::identity(), 0.2, Some(-Vector3::z()), 1e-14, "box-ball face");
    // Capsules, parallel side by side: cores 0.3 apart, radii 0.2 + 0.2.
    let cap = Capsule { half_height: 0.5, radius: 0.2 };
    expect_depth(&cap, &Isometry3::identity(), &cap, &iso(0.3, 0.0, 0.1, 0.0, 0.0, 0.0), 0.1, Some(Vector3::x()), 1e-14, "capsules parallel");
    // Crossed at right angles 0.1 apart along x, and crossing exactly (cores meet).
    let across = std::f64::consts::FRAC_PI_2;
    expect_depth(&cap, &Isometry3::identity(), &cap, &iso(0.1, 0.0, 0.0, across, 0.0, 0.0), 0.3, Some(Vector3::x()), 1e-14, "capsules crossed");
    let p = expect_depth(&cap, &Isometry3::identity(), &cap, &iso(0.0, 0.0, 0.0, across, 0.0, 0.0), 0.4, None, 1e-14, "capsules crossing");
    assert!(p.normal.x.abs() > 1.0 - 1e-12, "{p:?}");
    // Curved cores (EPA to ~1e-9): parallel cylinders 0.8 apart (radii 0.5): 0.2.
    let cyl = Cylinder { half_height: 1.0, radius: 0.5 };
    expect_depth(
        &cyl,
        &Isometry3::identity(),
        &cyl,
        &iso(0.8 * 0.6, 0.8 * 0.8, 0.3, 0.0, 0.0, 0.0),
        0.2,
        Some(Vector3::new(0.6, 0.8, 0.0)),
        1e-9,
        "cylinders side by side",
    );
    // Crossed cylinders stacked in z (axes x and y): 1.0 - 0.9.
    expect_depth(
        &Cylinder { half_height: 1.0, radius: 0.5 },
        &iso(0.0, 0.0, 0.0, 0.0, across, 0.0),
        &cyl,
        &iso(0.0, 0.0, 0.9, across, 0.0, 0.0),
        0.1,
        Some(Vector3::z()),
        1e-9,
        "cylinders crossed",
    );
    // A cylinder on its side sunk 0.1 into a box's top face.
    let slab = Cuboid { half_extents: Vector3::new(2.0, 2.0, 0.5) };
    expect_depth(&slab, &Isometry3::identity(), &cyl, &iso(0.3, -0.2, 0.9, 0.0, across, 0.0), 0.1, Some(Vector3::z()), 1e-9, "cylinder on box");
    // A ball against a cylinder's side: 0.8 - 0.7.
    expect_depth(
        &cyl,
        &Isometry3::identity(),
        &Ball { radius: 0.3 },
        &iso(0.0, -0.7, 0.2, 0.0, 0.0, 0.0),
        0.1,
        Some(-Vector3::y()),
        1e-12,
        "ball-cylinder side",
    );
    // A cone's apex 0.05 into a box top (cone upside down, apex at -0.5 below its centre).
    let cone = Cone { half_height: 0.5, radius: 0.3 };
    expect_depth(
        &slab,
        &Isometry3::identity(),
        &cone,
        &iso(0.2, 0.1, 0.95, std::f64::consts::PI, 0.0, 0.0),
        0.05,
        Some(Vector3::z()),
        1e-9,
        "cone apex into box",
    );
    // A capsule lying in a cylinder's top: 0.2 + 1.0 - 1.1.
    expect_depth(&cyl, &Isometry3::identity(), &cap, &iso(0.1, 0.0, 1.1, 0.0, across, 0.0), 0.1, Some(Vector3::z()), 1e-9, "capsule on cylinder");
}

#[test]
fn disjoint_shapes_have_no_depth() {
    let unit = Cuboid { half_extents: Vector3::new(1.0, 1.0, 1.0) };
    let ball = Ball { radius: 0.5 };
    assert!(penetration_depth(&unit, &Isometry3::identity(), &ball, &iso(0.0, 0.0, 1.6, 0.0, 0.0, 0.0)).is_none());
    assert!(directional_depth(&unit, &Isometry3::identity(), &ball, &iso(0.0, 0.0, 1.6, 0.0, 0.0, 0.0), &Vector3::z()).is_none());
    let pts = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)];
    assert!(polytope_penetration_exact(&pts, &Isometry3::identity(), &pts, &iso(0.5, 0.5, 0.5, 0.0, 0.0, 0.0)).is_none());
}

/// 4..=30 random points in a ball of random radius (their hull is the polytope).
fn random_points(rng: &mut SplitMix64) -> Vec<Point3> {
    let n = 4 + rng.below(27);
    let r = rng.range(0.2, 1.0);
    (0..n).map(|_| Point3::from(rng.unit() * r * rng.range(0.2, 1.0).cbrt())).collect()
}

#[test]
fn epa_matches_exact_facets_on_random_polytopes() {
    let mut rng = SplitMix64::new(0xe9a_0004);
    let (mut cases, mut worst, mut worst_normal) = (0, 0.0f64, 0.0f64);
    let mut tries = 0;
    while cases < 2000 {
        tries += 1;
        assert!(tries < 20_000);
        let (a, b) = (random_points(&mut rng), random_points(&mut rng));
        let (pa, pb) = (rng.pose(0.3), rng.pose(0.8));
        let exact = polytope_penetration_exact(&a, &pa, &b, &pb);
        let epa = penetration_depth(&VertexCloud(&a), &pa, &VertexCloud(&b), &pb);
        let (Some(exact), Some(epa)) = (exact, epa) else {
            assert!(exact.is_none() && epa.is_none(), "case {tries}: exact {exact:?} epa {epa:?}");
            continue;
        };
        cases += 1;
        let err = (exact.depth - epa.depth).abs();
        worst = worst.max(err);
        assert!(err < 1e-9, "case {tries}: exact {} epa {} ({err:e})", exact.depth, epa.depth);
        // Both translations separate; the minimal one is unique but for ties.
        check_translation(&VertexCloud(&a), &pa, &VertexCloud(&b), &pb, &exact, "exact");
        check_translation(&VertexCloud(&a), &pa, &VertexCloud(&b), &pb, &epa, "epa");
        worst_normal = worst_normal.max((exact.normal - epa.normal).norm().min(1.0));
    }
    eprintln!("EPA vs exact facets: {cases} overlapping pairs of {tries}, worst depth difference {worst:.1e}, worst normal difference {worst_normal:.1e}");
}

/// A polytope that owns its vertices.
struct Cloud(Vec<Point3>);

impl SupportMap for Cloud {
    fn core_support(&self, d: &Vector3) -> Point3 {
        VertexCloud(&self.0).core_support(d)
    }
}

/// A random primitive or polytope, boxed, with its kind.
fn random_shape(rng: &mut SplitMix64) -> (Box<dyn SupportMap>, &'static str) {
    let s = |rng: &mut SplitMix64| rng.range(0.1, 0.6);
    match rng.below(6) {
        0 => (Box::new(Cuboid { half_extents: Vector3::new(s(rng), s(rng), s(rng)) }), "box"),
        1 => (Box::new(Ball { radius: s(rng) }), "ball"),
        2 => (Box::new(Capsule { half_height: s(rng), radius: s(rng) }), "capsule"),
        3 => (Box::new(Cylinder { half_height: s(rng), radius: s(rng) }), "cylinder"),
        4 => (Box::new(Cone { half_height: s(rng), radius: s(rng) }), "cone"),
        _ => (Box::new(Cloud(random_points(rng))), "polytope"),
    }
}

/// Random overlapping pairs of every kind: the translation property, the directional
/// depth against the MTD and against a bisection on the discrete test.
#[test]
fn random_primitive_pairs() {
    let mut rng = SplitMix64::new(0xd1_0004);
    let (mut cases, mut directional_checked) = (0, 0);
    let (mut worst_bisect, mut worst_along_normal) = (0.0f64, 0.0f64);
    let mut tries = 0;
    while cases < 1500 {
        tries += 1;
        let (a, na) = random_shape(&mut rng);
        let (b, nb) = random_shape(&mut rng);
        let (pa, pb) = (rng.pose(0.2), rng.pose(0.6));
        let Some(p) = penetration_depth(a.as_ref(), &pa, b.as_ref(), &pb) else {
            assert!(!intersects(a.as_ref(), &pa, b.as_ref(), &pb));
            continue;
        };
        cases += 1;
        let what = format!("case {tries}: {na} vs {nb}");
        check_translation(a.as_ref(), &pa, b.as_ref(), &pb, &p, &what);
        // D along the MTD normal is the MTD; along any direction at least the MTD.
        let along = directional_depth(a.as_ref(), &pa, b.as_ref(), &pb, &p.normal).expect("intersecting");
        worst_along_normal = worst_along_normal.max((along - p.depth).abs());
        assert!((along - p.depth).abs() < 1e-9, "{what}: D(normal) {along} vs MTD {}", p.depth);
        if cases % 3 == 0 {
            directional_checked += 1;
            let d = rng.unit();
            let t = directional_depth(a.as_ref(), &pa, b.as_ref(), &pb, &d).expect("intersecting");
            assert!(t >= p.depth - 1e-9, "{what}: D {t} below MTD {}", p.depth);
            // Bisection on the discrete test.
            let (mut lo, mut hi) = (0.0, 4.0);
            assert!(!intersects(a.as_ref(), &pa, b.as_ref(), &shifted(&pb, &(d * hi))));
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if intersects(a.as_ref(), &pa, b.as_ref(), &shifted(&pb, &(d * mid))) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            worst_bisect = worst_bisect.max((t - lo).abs());
            assert!((t - lo).abs() < 1e-9, "{what}: D {t} vs bisection {lo}");
        }
    }
    eprintln!(
        "random pairs: {cases} overlapping of {tries}; D(normal) vs MTD worst {worst_along_normal:.1e}; D vs bisection ({directional_checked}) worst {worst_bisect:.1e}"
    );
}

#[test]
fn degenerate_input() {
    let id = Isometry3::identity();
    let pose = iso(0.3, -0.2, 0.1, 0.4, -0.3, 1.1);
    // Identical shapes at the same pose (a difference symmetric about the origin).
    let cuboid = Cuboid { half_extents: Vector3::new(0.5, 0.3, 0.4) };
    expect_depth(&cuboid, &pose, &cuboid, &pose, 0.6, None, 1e-12, "identical boxes");
    expect_depth(&Ball { radius: 0.4 }, &pose, &Ball { radius: 0.4 }, &pose, 0.8, None, 1e-12, "identical balls");
    expect_depth(&Capsule { half_height: 0.5, radius: 0.2 }, &pose, &Capsule { half_height: 0.5, radius: 0.2 }, &pose, 0.4, None, 1e-12, "identical capsules");
    expect_depth(
        &Cylinder { half_height: 0.5, radius: 0.2 },
        &pose,
        &Cylinder { half_height: 0.5, radius: 0.2 },
        &pose,
        0.4,
        None,
        1e-9,
        "identical cylinders",
    );
    expect_depth(&Cylinder { half_height: 0.15, radius: 0.4 }, &pose, &Cylinder { half_height: 0.15, radius: 0.4 }, &pose, 0.3, None, 1e-9, "identical discs");
    let cone = Cone { half_height: 0.5, radius: 0.3 };
    let p = penetration_depth(&cone, &pose, &cone, &pose).expect("identical cones");
    check_translation(&cone, &pose, &cone, &pose, &p, "identical cones");
    let pts = random_points(&mut SplitMix64::new(7));
    let exact = polytope_penetration_exact(&pts, &pose, &pts, &pose).unwrap();
    expect_depth(&VertexCloud(&pts), &pose, &VertexCloud(&pts), &pose, exact.depth, None, 1e-9, "identical polytopes");
    // Touching faces, edges, corners: depth 0 (to rounding).
    let unit = Cuboid { half_extents: Vector3::new(1.0, 1.0, 1.0) };
    for (t, n) in [
        (Vector3::new(2.0, 0.3, -0.4), Vector3::x()),
        (Vector3::new(2.0, 2.0, 0.5), Vector3::new(1.0, 1.0, 0.0).normalize()),
        (Vector3::new(-2.0, 2.0, -2.0), Vector3::new(-1.0, 1.0, -1.0).normalize()),
    ] {
        let pb = Isometry3::translation(t.x, t.y, t.z);
        let p = penetration_depth(&unit, &id, &unit, &pb).expect("touching counts");
        assert!(p.depth < 1e-12, "touching {t}: {p:?}");
        assert!(finite(&p) && p.normal.dot(&n) > 0.0, "touching {t}: {p:?}");
        check_translation(&unit, &id, &unit, &pb, &p, "touching");
        let verts: Vec<Point3> = (0..8)
            .map(|k| Point3::new(if k & 1 == 0 { -1.0 } else { 1.0 }, if k & 2 == 0 { -1.0 } else { 1.0 }, if k & 4 == 0 { -1.0 } else { 1.0 }))
            .collect();
        let e = polytope_penetration_exact(&verts, &id, &verts, &pb).expect("touching counts");
        assert!(e.depth < 1e-12 && finite(&e), "exact touching {t}: {e:?}");
    }
    // A cylinder standing on a box, a ball resting on a face.
    let slab = Cuboid { half_extents: Vector3::new(2.0, 2.0, 0.5) };
    let p = penetration_depth(&slab, &id, &Cylinder { half_height: 1.0, radius: 0.5 }, &iso(0.2, 0.1, 1.5, 0.0, 0.0, 0.0)).unwrap();
    assert!(p.depth < 1e-12 && (p.normal - Vector3::z()).norm() < 1e-9, "{p:?}");
    let p = penetration_depth(&slab, &id, &Ball { radius: 0.5 }, &iso(0.2, 0.1, 1.0, 0.0, 0.0, 0.0)).unwrap();
    assert!(p.depth < 1e-12 && (p.normal - Vector3::z()).norm() < 1e-12, "{p:?}");
    // Zero-volume polytopes: a square, a segment, a point against a box; two coplanar
    // overlapping squares (a flat difference: depth 0 along the plane's normal).
    let sq: Vec<Point3> = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)].iter().map(|&(x, y)| Point3::new(x, y, 0.0)).collect();
    let seg = [Point3::new(-0.5, 0.0, 0.0), Point3::new(0.5, 0.0, 0.0)];
    let dot = [Point3::new(0.0, 0.0, 0.0)];
    let pb = iso(0.0, 0.0, 0.8, 0.0, 0.0, 0.0);
    for (cloud, what) in [(&sq[..], "square"), (&seg[..], "segment"), (&dot[..], "point")] {
        expect_depth(&unit, &id, &VertexCloud(cloud), &pb, 0.2, Some(Vector3::z()), 1e-12, what);
        let e = polytope_penetration_exact(&unit_vertices(), &id, cloud, &pb).expect(what);
        assert!((e.depth - 0.2).abs() < 1e-12 && (e.normal - Vector3::z()).norm() < 1e-12, "exact {what}: {e:?}");
    }
    let shifted_sq = iso(0.3, 0.2, 0.0, 0.0, 0.0, 0.4);
    let p = penetration_depth(&VertexCloud(&sq), &id, &VertexCloud(&sq), &shifted_sq).expect("coplanar squares");
    assert!(p.depth < 1e-12 && p.normal.z.abs() > 1.0 - 1e-9, "{p:?}");
    let e = polytope_penetration_exact(&sq, &id, &sq, &shifted_sq).expect("coplanar squares");
    assert!(e.depth < 1e-12 && e.normal.z.abs() > 1.0 - 1e-9, "{e:?}");
    let p = penetration_depth(&VertexCloud(&dot), &id, &VertexCloud(&dot), &id).expect("same point");
    assert!(finite(&p) && p.depth == 0.0, "{p:?}");
    let e = polytope_penetration_exact(&dot, &id, &dot, &id).expect("same point");
    assert!(finite(&e) && e.depth == 0.0, "{e:?}");
    // Zero-size primitives and bad input: no panic, no NaN.
    let flat_box = Cuboid { half_extents: Vector3::new(0.5, 0.5, 0.0) };
    let p = penetration_depth(&flat_box, &id, &flat_box, &iso(0.2, 0.1, 0.0, 0.0, 0.0, 0.3)).expect("coplanar");
    assert!(finite(&p) && p.depth < 1e-12, "{p:?}");
    let p = penetration_depth(&Ball { radius: 0.0 }, &id, &Ball { radius: 0.0 }, &id).expect("same point");
    assert!(finite(&p) && p.depth == 0.0, "{p:?}");
    assert!(penetration_depth(&Ball { radius: f64::NAN }, &id, &unit, &id).is_none());
    assert!(penetration_depth(&unit, &iso(f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0), &unit, &id).is_none());
    assert!(polytope_penetration_exact(&[], &id, &sq, &id).is_none());
    assert!(polytope_penetration_exact(&[Point3::new(f64::INFINITY, 0.0, 0.0)], &id, &sq, &id).is_none());
    assert!(directional_depth(&unit, &id, &unit, &id, &Vector3::zeros()).is_none());
    assert!(directional_depth(&unit, &id, &unit, &id, &Vector3::new(f64::NAN, 0.0, 0.0)).is_none());
    let t = directional_depth(&unit, &id, &unit, &id, &Vector3::new(0.0, 0.0, 2.0)).unwrap();
    assert!((t - 1.0).abs() < 1e-12, "D(αd) = D(d)/α: {t}");
}

fn unit_vertices() -> Vec<Point3> {
    (0..8).map(|k| Point3::new(if k & 1 == 0 { -1.0 } else { 1.0 }, if k & 2 == 0 { -1.0 } else { 1.0 }, if k & 4 == 0 { -1.0 } else { 1.0 })).collect()
}

/// Far from the origin (coordinates ~100 m) and small (~1 mm) the tolerances scale.
#[test]
fn far_and_small_shapes() {
    let mut rng = SplitMix64::new(0xfa_0004);
    for (offset, size) in [(100.0, 1.0), (0.0, 1e-3), (10.0, 1e-2)] {
        let mut cases = 0;
        while cases < 200 {
            let a: Vec<Point3> = random_points(&mut rng).iter().map(|p| p * size).collect();
            let b: Vec<Point3> = random_points(&mut rng).iter().map(|p| p * size).collect();
            let mut pa = rng.pose(0.3 * size);
            let mut pb = rng.pose(0.8 * size);
            let o = Vector3::new(offset, -offset * 0.5, offset * 0.3);
            pa.translation.vector += o;
            pb.translation.vector += o;
            let (Some(e), Some(p)) = (polytope_penetration_exact(&a, &pa, &b, &pb), penetration_depth(&VertexCloud(&a), &pa, &VertexCloud(&b), &pb)) else {
                continue;
            };
            cases += 1;
            let scale = offset + size;
            assert!((e.depth - p.depth).abs() < 1e-12 * scale, "offset {offset} size {size}: exact {} epa {}", e.depth, p.depth);
            let cyl = Cylinder { half_height: 0.4 * size, radius: 0.3 * size };
            if let Some(p) = penetration_depth(&cyl, &pa, &VertexCloud(&b), &pb) {
                assert!(finite(&p));
                let apart = shifted(&pb, &(p.normal * (p.depth * (1.0 + 1e-9) + 1e-12 * scale)));
                assert!(!intersects(&cyl, &pa, &VertexCloud(&b), &apart), "offset {offset} size {size}: {p:?}");
                if p.depth > 1e-6 * size {
                    let inside = shifted(&pb, &(p.normal * (p.depth - 1e-7 * size)));
                    assert!(intersects(&cyl, &pa, &VertexCloud(&b), &inside), "offset {offset} size {size}: {p:?}");
                }
            }
        }
    }
}

/// Boxes as vertex lists (coplanar differences everywhere: a hull full of ties): the
/// exact facets, EPA on the vertices and EPA on the primitive agree.
#[test]
fn boxes_as_polytopes() {
    let mut rng = SplitMix64::new(0xb0c5_0004);
    let corners = |h: &Vector3| -> Vec<Point3> { unit_vertices().iter().map(|p| Point3::new(p.x * h.x, p.y * h.y, p.z * h.z)).collect() };
    let mut cases = 0;
    let mut worst = 0.0f64;
    while cases < 500 {
        let ha = Vector3::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6));
        let hb = Vector3::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6));
        let (pa, mut pb) = (rng.pose(0.2), rng.pose(0.6));
        if cases % 4 == 0 {
            // Same orientation: faces parallel, the worst ties.
            pb.rotation = pa.rotation;
        }
        let (va, vb) = (corners(&ha), corners(&hb));
        let Some(exact) = polytope_penetration_exact(&va, &pa, &vb, &pb) else { continue };
        cases += 1;
        let cloud = penetration_depth(&VertexCloud(&va), &pa, &VertexCloud(&vb), &pb).expect("overlap");
        let prim = penetration_depth(&Cuboid { half_extents: ha }, &pa, &Cuboid { half_extents: hb }, &pb).expect("overlap");
        for (p, what) in [(&exact, "exact"), (&cloud, "cloud"), (&prim, "primitive")] {
            let err = (p.depth - exact.depth).abs();
            worst = worst.max(err);
            assert!(err < 1e-9, "case {cases} {what}: {} vs exact {}", p.depth, exact.depth);
            check_translation(&Cuboid { half_extents: ha }, &pa, &Cuboid { half_extents: hb }, &pb, p, what);
        }
    }
    eprintln!("boxes as polytopes: 500 pairs, worst difference {worst:.1e}");
}

/// Many more random pairs, flat and needle polytopes and concentric placements among
/// them; every 20th also against 300 random directions (no direction separates with
/// less). Run with `--ignored` (a few seconds); `SEED=n` picks another sequence.
#[test]
#[ignore]
fn stress_random_pairs() {
    let mut rng = SplitMix64::new(std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x0571_7e55));
    let (mut cases, mut tries, mut worst_gap) = (0, 0, 0.0f64);
    while cases < 20_000 {
        tries += 1;
        let shape = |rng: &mut SplitMix64| -> (Box<dyn SupportMap>, &'static str) {
            match rng.below(4) {
                0 => {
                    // Flat: points in a plane.
                    let n = 3 + rng.below(8);
                    (Box::new(Cloud((0..n).map(|_| Point3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), 0.0)).collect())), "flat")
                }
                1 => {
                    let n = 2 + rng.below(3);
                    let d = rng.unit();
                    (Box::new(Cloud((0..n).map(|_| Point3::from(d * rng.range(-0.5, 0.5))).collect())), "needle")
                }
                _ => random_shape(rng),
            }
        };
        let (a, na) = shape(&mut rng);
        let (b, nb) = shape(&mut rng);
        let (pa, mut pb) = (rng.pose(0.2), rng.pose(0.5));
        if tries % 10 == 0 {
            // Concentric: deep, and symmetric for like shapes.
            pb.translation = pa.translation;
        }
        let Some(p) = penetration_depth(a.as_ref(), &pa, b.as_ref(), &pb) else { continue };
        cases += 1;
        let what = format!("case {tries}: {na} vs {nb}");
        let gap = check_translation(a.as_ref(), &pa, b.as_ref(), &pb, &p, &what);
        worst_gap = worst_gap.max(gap);
        let t = directional_depth(a.as_ref(), &pa, b.as_ref(), &pb, &p.normal).expect("intersecting");
        assert!((t - p.depth).abs() < 1e-9, "{what}: D {t} vs {}", p.depth);
        if cases % 20 == 0 {
            for _ in 0..300 {
                let d = rng.unit();
                let t = directional_depth(a.as_ref(), &pa, b.as_ref(), &pb, &d).expect("intersecting");
                assert!(t >= p.depth - 1e-9, "{what}: D({d}) = {t} below the MTD {}", p.depth);
            }
        }
    }
    eprintln!("stress: {cases} of {tries}, largest gap after depth + 1e-9: {worst_gap:.3e}");
}

/// How far the witness points of `p` are from where they belong: point_a on A's
/// supporting plane along `normal` (support function) and in A (GJK distance), point_b
/// likewise on B's along `-normal` and in B, and `point_a - point_b = depth * normal`.
/// Together: both points on their shape's boundary, where the planes touch it.
fn witness_error(a: &dyn SupportMap, pa: &Isometry3, b: &dyn SupportMap, pb: &Isometry3, p: &Penetration) -> Real {
    let plane =
        |s: &dyn SupportMap, pose: &Isometry3, x: &Point3, n: &Vector3| ((pose * s.support(&pose.rotation.inverse_transform_vector(n))) - x).dot(n).abs();
    let outside =
        |s: &dyn SupportMap, pose: &Isometry3, x: &Point3| closest_points(s, pose, &Ball { radius: 0.0 }, &Isometry3::translation(x.x, x.y, x.z)).distance;
    [
        plane(a, pa, &p.point_a, &p.normal),
        outside(a, pa, &p.point_a),
        plane(b, pb, &p.point_b, &-p.normal),
        outside(b, pb, &p.point_b),
        (p.point_a - p.point_b - p.normal * p.depth).norm(),
    ]
    .into_iter()
    .fold(0.0, Real::max)
}

/// The witness points lie on the shapes (issue 5: EPA's could be off them by
/// centimetres, on ~7 % of polytope pairs and ~6 % of primitive pairs): EPA and the
/// exact facets on random polytopes, EPA on random primitive pairs.
#[test]
fn witness_points_on_surfaces() {
    let mut rng = SplitMix64::new(0x0517_4e55);
    let (mut cases, mut tries) = (0, 0);
    let (mut worst_epa, mut worst_exact, mut worst_primitive) = (0.0f64, 0.0f64, 0.0f64);
    let mut off = 0;
    while cases < 2000 {
        tries += 1;
        let (a, b) = (random_points(&mut rng), random_points(&mut rng));
        let (pa, pb) = (rng.pose(0.3), rng.pose(0.8));
        let (Some(exact), Some(epa)) = (polytope_penetration_exact(&a, &pa, &b, &pb), penetration_depth(&VertexCloud(&a), &pa, &VertexCloud(&b), &pb)) else {
            continue;
        };
        cases += 1;
        let e = witness_error(&VertexCloud(&a), &pa, &VertexCloud(&b), &pb, &epa);
        off += (e > 1e-9) as usize;
        worst_epa = worst_epa.max(e);
        worst_exact = worst_exact.max(witness_error(&VertexCloud(&a), &pa, &VertexCloud(&b), &pb, &exact));
    }
    let mut primitive_cases = 0;
    while primitive_cases < 2000 {
        let (a, na) = random_shape(&mut rng);
        let (b, nb) = random_shape(&mut rng);
        let (pa, pb) = (rng.pose(0.2), rng.pose(0.6));
        let Some(p) = penetration_depth(a.as_ref(), &pa, b.as_ref(), &pb) else { continue };
        primitive_cases += 1;
        let e = witness_error(a.as_ref(), &pa, b.as_ref(), &pb, &p);
        if e > 1e-9 {
            off += 1;
            eprintln!("{na} vs {nb}: witness error {e:.3e} (depth {:.3e})", p.depth);
        }
        worst_primitive = worst_primitive.max(e);
    }
    eprintln!(
        "witness points: {cases} polytope pairs (of {tries}), worst EPA {worst_epa:.1e}, exact {worst_exact:.1e}; {primitive_cases} primitive pairs, worst {worst_primitive:.1e}; {off} off by > 1e-9"
    );
    assert!(worst_epa < 1e-9 && worst_exact < 1e-9 && worst_primitive < 1e-9, "{off} witness pairs off their shapes");
}
