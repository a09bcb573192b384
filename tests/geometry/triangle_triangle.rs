//! Tests of the triangle–triangle test of Šinjur §5: hand-made edge cases, and
//! agreement with an exact integer brute-force reference on random small-coordinate
//! triangles (where touching, coplanar and degenerate configurations are frequent).
use ccd_guard::math::{Point3, Triangle, Vector3};
use ccd_guard::query::triangle_triangle::{segment_triangle_intersection, triangles_intersect};

use crate::common::rng::XorShift64;

fn p(x: f64, y: f64, z: f64) -> Point3 {
    Point3::new(x, y, z)
}

fn tri(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Triangle {
    [p(a[0], a[1], a[2]), p(b[0], b[1], b[2]), p(c[0], c[1], c[2])]
}

// ---------------------------------------------------------------------------------------
// Float distance helpers, to check that a returned point lies in both triangles.

fn dist_point_segment(x: &Point3, a: &Point3, b: &Point3) -> f64 {
    let d = b - a;
    let l = d.norm_squared();
    let t = if l > 0.0 { ((x - a).dot(&d) / l).clamp(0.0, 1.0) } else { 0.0 };
    (x - (a + d * t)).norm()
}

fn dist_point_triangle(x: &Point3, t: &Triangle) -> f64 {
    let edges = dist_point_segment(x, &t[0], &t[1]).min(dist_point_segment(x, &t[1], &t[2])).min(dist_point_segment(x, &t[2], &t[0]));
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let nn = n.norm_squared();
    if nn > 0.0 {
        let h = (x - t[0]).dot(&n) / nn;
        let y = x - n * h;
        let inside = (0..3).all(|k| (t[(k + 1) % 3] - t[k]).cross(&(y - t[k])).dot(&n) >= 0.0);
        if inside {
            return (n * h).norm().min(edges);
        }
    }
    edges
}

/// Asserts the answer and, for a hit, that the point lies in both triangles, in both
/// argument orders.
fn check(a: &Triangle, b: &Triangle, expect: bool) {
    for (x, y) in [(a, b), (b, a)] {
        let got = triangles_intersect(x, y);
        assert_eq!(got.is_some(), expect, "triangles {x:?} {y:?} -> {got:?}");
        if let Some(q) = got {
            assert!(dist_point_triangle(&q, x) < 1e-9 && dist_point_triangle(&q, y) < 1e-9, "point {q:?} not in both of {x:?} {y:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Hand-made cases.

#[test]
fn disjoint_far_apart() {
    let a = tri([0., 0., 0.], [1., 0., 0.], [0., 1., 0.]);
    let b = tri([5., 5., 5.], [6., 5., 5.], [5., 6., 5.]);
    check(&a, &b, false);
}

#[test]
fn separated_by_plane() {
    let a = tri([0., 0., 0.], [4., 0., 0.], [0., 4., 0.]);
    let b = tri([1., 1., 0.5], [2., 1., 3.], [1., 2., 1.]);
    check(&a, &b, false);
}

#[test]
fn planes_cross_but_triangles_miss() {
    // Each triangle crosses the other's plane, but the intervals on the line are disjoint.
    let a = tri([0., 0., 0.], [1., 0., 0.], [0., 1., 0.]);
    let b = tri([3., 0., -1.], [3., 0., 1.], [4., 1., 0.]);
    check(&a, &b, false);
}

#[test]
fn crossing() {
    let a = tri([0., 0., 0.], [4., 0., 0.], [0., 4., 0.]);
    let b = tri([1., 1., -1.], [1., 1., 1.], [2., 0.5, 0.]);
    check(&a, &b, true);
    // Piercing through the middle like a chain link.
    let c = tri([-1., 1., -1.], [3., 1., -1.], [1., 1., 3.]);
    check(&a, &c, true);
}

#[test]
fn touching_at_a_vertex() {
    let a = tri([0., 0., 0.], [1., 0., 0.], [0., 1., 0.]);
    let b = tri([1., 0., 0.], [2., 1., 1.], [2., -1., 1.]);
    check(&a, &b, true);
    // Moved apart by a little: no contact.
    let c = tri([1. + 1e-9, 0., 0.], [2., 1., 1.], [2., -1., 1.]);
    check(&a, &c, false);
}

#[test]
fn vertex_on_face() {
    let a = tri([0., 0., 0.], [4., 0., 0.], [0., 4., 0.]);
    let b = tri([1., 1., 0.], [1., 2., 2.], [2., 1., 2.]);
    check(&a, &b, true);
    let c = tri([1., 1., 1e-9], [1., 2., 2.], [2., 1., 2.]);
    check(&a, &c, false);
}

#[test]
fn vertex_on_edge() {
    let a = tri([0., 0., 0.], [4., 0., 0.], [0., 4., 0.]);
    let b = tri([2., 0., 0.], [2., -1., 1.], [3., -1., 2.]);
    check(&a, &b, true);
}

#[test]
fn edge_edge_touching() {
    // Edges cross at one point, triangles in different planes, no other contact.
    let a = tri([0., 0., 0.], [2., 0., 0.], [0., 0., -2.]);
    let b = tri([1., -1., 0.], [1., 1., 0.], [1., 0., 2.]);
    check(&a, &b, true);
    let c = tri([1., -1., 1e-9], [1., 1., 1e-9], [1., 0., 2.]);
    check(&a, &c, false);
}

#[test]
fn shared_vertex() {
    let a = tri([0., 0., 0.], [1., 0., 0.], [0., 1., 0.]);
    let b = tri([0., 0., 0.], [-1., 0., 1.], [0., -1., 1.]);
    check(&a, &b, true);
}

#[test]
fn shared_edge() {
    let a = tri([0., 0., 0.], [1., 0., 0.], [0., 1., 0.]);
    let b = tri([0., 0., 0.], [1., 0., 0.], [0.5, -1., 1.]);
    check(&a, &b, true);
    // Coplanar neighbours of a mesh.
    let c = tri([1., 0., 0.], [0., 1., 0.], [1., 1., 0.]);
    check(&a, &c, true);
}

#[test]
fn coplanar_overlapping() {
    let a = tri([0., 0., 0.], [4., 0., 0.], [0., 4., 0.]);
    let b = tri([1., 1., 0.], [5., 1., 0.], [1., 5., 0.]);
    check(&a, &b, true);
}

#[test]
fn coplanar_star_of_david() {
    // No corner of either triangle lies in the other one.
    let a = tri([0., 0., 0.], [6., 0., 0.], [3., 5., 0.]);
    let b = tri([0., 3.5, 0.], [6., 3.5, 0.], [3., -1.5, 0.]);
    check(&a, &b, true);
}

#[test]
fn coplanar_disjoint() {
    let a = tri([0., 0., 0.], [1., 0., 0.], [0., 1., 0.]);
    let b = tri([1., 1., 0.], [2., 1., 0.], [1., 2., 0.]);
    check(&a, &b, false);
    // Separated only by the hypotenuse line, by a little.
    let c = tri([0.5 + 1e-9, 0.5 + 1e-9, 0.], [2., 0.6, 0.], [0.6, 2., 0.]);
    check(&a, &c, false);
}

#[test]
fn coplanar_containment() {
    let a = tri([0., 0., 0.], [10., 0., 0.], [0., 10., 0.]);
    let b = tri([1., 1., 0.], [2., 1., 0.], [1., 2., 0.]);
    check(&a, &b, true);
    // In a tilted plane.
    let a = tri([0., 0., 0.], [10., 0., 10.], [0., 10., 0.]);
    let b = tri([1., 1., 1.], [2., 1., 2.], [1., 2., 1.]);
    check(&a, &b, true);
}

#[test]
fn coplanar_touching_edges() {
    let a = tri([0., 0., 0.], [2., 0., 0.], [0., 2., 0.]);
    // Sharing part of the hypotenuse, on the other side.
    let b = tri([1.5, 0.5, 0.], [0.5, 1.5, 0.], [2., 2., 0.]);
    check(&a, &b, true);
    // Corner touching corner.
    let c = tri([2., 0., 0.], [3., 0., 0.], [3., 1., 0.]);
    check(&a, &c, true);
    // Corner touching the middle of an edge.
    let d = tri([1., 1., 0.], [3., 2., 0.], [2., 3., 0.]);
    check(&a, &d, true);
}

#[test]
fn degenerate_segment_crossing_triangle() {
    let a = tri([0., 0., 0.], [4., 0., 0.], [0., 4., 0.]);
    // Collinear corners, middle corner listed last.
    let s = tri([1., 1., -1.], [1., 1., 1.], [1., 1., 0.5]);
    check(&a, &s, true);
    // Repeated corner.
    let r = tri([1., 1., -1.], [1., 1., 1.], [1., 1., 1.]);
    check(&a, &r, true);
    // Segment lying in the plane and crossing an edge.
    let c = tri([-1., 1., 0.], [1., 1., 0.], [0., 1., 0.]);
    check(&a, &c, true);
    // Segment passing beside the triangle.
    let m = tri([3., 3., -1.], [3., 3., 1.], [3., 3., 0.]);
    check(&a, &m, false);
}

#[test]
fn degenerate_point_on_and_off_triangle() {
    let a = tri([0., 0., 0.], [4., 0., 0.], [0., 4., 0.]);
    let on = tri([1., 1., 0.], [1., 1., 0.], [1., 1., 0.]);
    check(&a, &on, true);
    let on_edge = tri([2., 2., 0.], [2., 2., 0.], [2., 2., 0.]);
    check(&a, &on_edge, true);
    let above = tri([1., 1., 1e-9], [1., 1., 1e-9], [1., 1., 1e-9]);
    check(&a, &above, false);
    let beside = tri([3., 3., 0.], [3., 3., 0.], [3., 3., 0.]);
    check(&a, &beside, false);
}

#[test]
fn degenerate_both() {
    let s1 = tri([0., 0., 0.], [2., 2., 2.], [1., 1., 1.]);
    let s2 = tri([0., 2., 0.], [2., 0., 2.], [2., 0., 2.]);
    check(&s1, &s2, true);
    let s3 = tri([0., 2., 0.], [2., 0., 2.1], [2., 0., 2.1]);
    check(&s1, &s3, false);
    let collinear_overlap = tri([1.5, 1.5, 1.5], [3., 3., 3.], [4., 4., 4.]);
    check(&s1, &collinear_overlap, true);
    let collinear_apart = tri([2.5, 2.5, 2.5], [3., 3., 3.], [4., 4., 4.]);
    check(&s1, &collinear_apart, false);
    let point = [p(1.5, 1.5, 1.5); 3];
    check(&s1, &point, true);
    check(&point, &point, true);
    let other_point = [p(1.5, 1.5, 1.6); 3];
    check(&point, &other_point, false);
}

#[test]
fn identical_triangles() {
    let a = tri([0.3, 0.1, 0.7], [1.9, -0.4, 0.2], [0.5, 1.1, -0.8]);
    check(&a, &a, true);
}

#[test]
fn non_finite_input_is_none() {
    let a = tri([0., 0., 0.], [1., 0., 0.], [0., 1., 0.]);
    let b = tri([f64::NAN, 0., 0.], [1., 0., 0.], [0., 1., 0.]);
    assert_eq!(triangles_intersect(&a, &b), None);
    let c = tri([f64::INFINITY, 0., 0.], [0.2, 0.2, -1.], [0.2, 0.2, 1.]);
    assert_eq!(triangles_intersect(&a, &c), None);
}

/// Ill-conditioned pairs found by stress testing (exact answers computed with rationals).
#[test]
fn ill_conditioned_regressions() {
    // A sliver (angle about 3e-10) lying near the plane of a large triangle, 2000 units
    // away from it: exactly disjoint. A loose snap of the sliver's plane once reported it.
    let a = tri(
        [92630.28469968773, 445584.19601357257, -29078.04237064062],
        [91489.53877813398, 440763.83863393974, -29392.18187131142],
        [99043.03767363373, 446541.59693777113, -38434.908127208466],
    );
    let b = tri(
        [93311.24593330862, 448818.2018627485, -28738.817346251977],
        [94246.44836658472, 447662.78491579933, -30654.415717581687],
        [93698.7329016207, 448339.47234496725, -29532.516527305666],
    );
    check(&a, &b, false);
    // A sliver (angle about 1e-6) crossing a triangle: exactly intersecting, and the
    // returned point must be on both (a barycentric distance formula misjudged it).
    let a = tri(
        [43.15187742324155, -7.75588066595103, -2.8334492867092327],
        [43.132303092360424, -8.422106610437396, -3.0105992514345066],
        [43.38503873790881, -7.707163752132761, -2.912888478256212],
    );
    let b = tri(
        [43.38204220412841, -7.683092060878066, -2.9050110630971635],
        [43.46755504581238, -8.46226201098419, -3.155415306241871],
        [43.39862335090959, -7.8341750176131955, -2.953565053164028],
    );
    check(&a, &b, true);
    // Nearly coplanar: exactly disjoint, but a corner of one is 1.4e-15 from the other,
    // below what rounding can resolve: reported as touching, with a point that close.
    let a = tri(
        [-19.80056762629972, 8.260982961185872, -38.356684371465946],
        [-20.028588218972942, 7.634724259785929, -38.598040891261704],
        [-20.08019367935644, 8.076992567255967, -37.905620370456894],
    );
    let b = tri(
        [-20.1583605682118, 7.687409718833284, -38.21208406628903],
        [-20.28967576351305, 7.804863037985297, -37.73949019227428],
        [-19.70891700929145, 8.370576974626422, -38.44147617000008],
    );
    check(&a, &b, true);
}

#[test]
fn segment_triangle_cases() {
    let t = tri([0., 0., 0.], [4., 0., 0.], [0., 4., 0.]);
    let hit = segment_triangle_intersection(&p(1., 1., -1.), &p(1., 1., 3.), &t).unwrap();
    assert!((hit - p(1., 1., 0.)).norm() < 1e-12);
    assert!(segment_triangle_intersection(&p(1., 1., 0.5), &p(1., 1., 3.), &t).is_none());
    assert!(segment_triangle_intersection(&p(1., 1., 0.), &p(1., 1., 3.), &t).is_some());
    assert!(segment_triangle_intersection(&p(-1., 1., 0.), &p(-0.5, 1., 0.), &t).is_none());
    assert!(segment_triangle_intersection(&p(-1., 1., 0.), &p(0., 1., 0.), &t).is_some());
    assert!(segment_triangle_intersection(&p(1., 1., 0.), &p(1., 1., 0.), &t).is_some());
}

// ---------------------------------------------------------------------------------------
// Floating-point scenes at a larger scale.

/// This file's draws, on the shared xorshift64 ([`XorShift64`]).
impl XorShift64 {
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }
    fn vec(&mut self, r: f64) -> Vector3 {
        Vector3::new(self.range(-r, r), self.range(-r, r), self.range(-r, r))
    }
}

#[test]
fn float_crossing_and_slightly_separated() {
    let mut rng = XorShift64::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let scale = [1e-3, 1.0, 1e3][rng.int(0, 2) as usize];
        let origin = Point3::from(rng.vec(10.0 * scale));
        let a: Triangle = [origin + rng.vec(scale), origin + rng.vec(scale), origin + rng.vec(scale)];
        let n = (a[1] - a[0]).cross(&(a[2] - a[0]));
        if n.norm() < 1e-3 * scale * scale {
            continue;
        }
        // A point inside `a`, and `b` built around it.
        let (u, v) = (rng.f(), rng.f());
        let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
        let x = a[0] + (a[1] - a[0]) * u + (a[2] - a[0]) * v;
        let v0 = rng.vec(scale);
        let v1 = rng.vec(scale);
        let (al, be) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let v2 = -(v0 * al + v1 * be);
        let b: Triangle = [x + v0, x + v1, x + v2];
        if (b[1] - b[0]).cross(&(b[2] - b[0])).norm() < 1e-3 * scale * scale {
            continue;
        }
        check(&a, &b, true);
        // Lift `b` entirely above the plane of `a` by a relative gap of 1e-9.
        let nh = n.normalize();
        let lowest = b.iter().map(|q| (q - a[0]).dot(&nh)).fold(f64::INFINITY, f64::min);
        let gap = 1e-9 * scale;
        let lifted: Triangle = b.map(|q| q + nh * (gap - lowest));
        check(&a, &lifted, false);
    }
}

// ---------------------------------------------------------------------------------------
// Exact reference with i128 arithmetic.

type Ip = [i128; 3];

fn sub(a: Ip, b: Ip) -> Ip {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: Ip, b: Ip) -> Ip {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn dot(a: Ip, b: Ip) -> i128 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn orient(p: Ip, q: Ip, r: Ip, s: Ip) -> i128 {
    dot(cross(sub(q, p), sub(r, p)), sub(s, p))
}
const ZERO: Ip = [0, 0, 0];

fn on_segment(x: Ip, p: Ip, q: Ip) -> bool {
    if p == q {
        return x == p;
    }
    cross(sub(q, p), sub(x, p)) == ZERO && dot(sub(x, p), sub(x, q)) <= 0
}

fn ref_seg_seg(p: Ip, q: Ip, r: Ip, s: Ip) -> bool {
    if p == q {
        return on_segment(p, r, s);
    }
    if r == s {
        return on_segment(r, p, q);
    }
    if orient(p, q, r, s) != 0 {
        return false;
    }
    let u = sub(q, p);
    let w = sub(s, r);
    let m = cross(u, w);
    if m != ZERO {
        let s1 = dot(cross(u, sub(r, p)), m).signum();
        let s2 = dot(cross(u, sub(s, p)), m).signum();
        let s3 = dot(cross(w, sub(p, r)), m).signum();
        let s4 = dot(cross(w, sub(q, r)), m).signum();
        s1 * s2 <= 0 && s3 * s4 <= 0
    } else if cross(u, sub(r, p)) != ZERO {
        false
    } else {
        let len = dot(u, u);
        let tr = dot(sub(r, p), u);
        let ts = dot(sub(s, p), u);
        tr.min(ts).max(0) <= tr.max(ts).min(len)
    }
}

fn ref_point_in_tri(x: Ip, t: [Ip; 3]) -> bool {
    if orient(t[0], t[1], t[2], x) != 0 {
        return false;
    }
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    (0..3).all(|k| dot(cross(sub(t[(k + 1) % 3], t[k]), sub(x, t[k])), n) >= 0)
}

fn ref_seg_tri(p: Ip, q: Ip, t: [Ip; 3]) -> bool {
    if p == q {
        return ref_point_in_tri(p, t);
    }
    let sp = orient(t[0], t[1], t[2], p).signum();
    let sq = orient(t[0], t[1], t[2], q).signum();
    if sp * sq > 0 {
        return false;
    }
    if sp == 0 && sq == 0 {
        return ref_point_in_tri(p, t) || ref_point_in_tri(q, t) || (0..3).any(|k| ref_seg_seg(p, q, t[k], t[(k + 1) % 3]));
    }
    if sp == 0 {
        return ref_point_in_tri(p, t);
    }
    if sq == 0 {
        return ref_point_in_tri(q, t);
    }
    let o: Vec<i128> = (0..3).map(|k| orient(p, q, t[k], t[(k + 1) % 3]).signum()).collect();
    o.iter().all(|&x| x >= 0) || o.iter().all(|&x| x <= 0)
}

enum Simplex {
    Point(Ip),
    Seg(Ip, Ip),
    Tri([Ip; 3]),
}

fn simplex(t: [Ip; 3]) -> Simplex {
    if cross(sub(t[1], t[0]), sub(t[2], t[0])) != ZERO {
        return Simplex::Tri(t);
    }
    if t[0] == t[1] && t[1] == t[2] {
        return Simplex::Point(t[0]);
    }
    let len = |a: Ip, b: Ip| dot(sub(a, b), sub(a, b));
    let pairs = [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
    let &(a, b) = pairs.iter().max_by_key(|(a, b)| len(*a, *b)).unwrap();
    Simplex::Seg(a, b)
}

/// Exact answer: closed triangles (or the segments/points that degenerate ones span)
/// intersect iff an edge of one meets the other.
fn reference(a: [Ip; 3], b: [Ip; 3]) -> bool {
    use Simplex::*;
    match (simplex(a), simplex(b)) {
        (Point(x), Point(y)) => x == y,
        (Point(x), Seg(p, q)) | (Seg(p, q), Point(x)) => on_segment(x, p, q),
        (Point(x), Tri(t)) | (Tri(t), Point(x)) => ref_point_in_tri(x, t),
        (Seg(p, q), Seg(r, s)) => ref_seg_seg(p, q, r, s),
        (Seg(p, q), Tri(t)) | (Tri(t), Seg(p, q)) => ref_seg_tri(p, q, t),
        (Tri(s), Tri(t)) => (0..3).any(|k| ref_seg_tri(s[k], s[(k + 1) % 3], t) || ref_seg_tri(t[k], t[(k + 1) % 3], s)),
    }
}

fn to_float(t: [Ip; 3]) -> Triangle {
    t.map(|q| p(q[0] as f64, q[1] as f64, q[2] as f64))
}

fn random_int_pair(rng: &mut XorShift64) -> ([Ip; 3], [Ip; 3]) {
    let r = [1, 2, 4][rng.int(0, 2) as usize];
    let pt = |rng: &mut XorShift64| -> Ip { [rng.int(-r, r) as i128, rng.int(-r, r) as i128, rng.int(-r, r) as i128] };
    let mut a = [pt(rng), pt(rng), pt(rng)];
    let mut b = [pt(rng), pt(rng), pt(rng)];
    match rng.int(0, 9) {
        // Both in one coordinate plane (coplanar).
        0 | 1 => {
            let axis = rng.int(0, 2) as usize;
            let c = rng.int(-1, 1) as i128;
            for q in a.iter_mut().chain(b.iter_mut()) {
                q[axis] = c;
            }
        }
        // Both in a tilted plane x + y - z = c.
        2 => {
            let c = rng.int(-2, 2) as i128;
            for q in a.iter_mut().chain(b.iter_mut()) {
                q[2] = q[0] + q[1] - c;
            }
        }
        // Shared corner or shared edge.
        3 => b[rng.int(0, 2) as usize] = a[rng.int(0, 2) as usize],
        4 => {
            b[0] = a[0];
            b[1] = a[1];
        }
        // A degenerate triangle: collinear corners or a repeated corner.
        5 => {
            let k = rng.int(-1, 2) as i128;
            let d = sub(a[1], a[0]);
            a[2] = [a[0][0] + k * d[0], a[0][1] + k * d[1], a[0][2] + k * d[2]];
        }
        6 => b[2] = b[rng.int(0, 1) as usize],
        _ => {}
    }
    (a, b)
}

#[test]
fn agrees_with_exact_integer_reference() {
    let mut rng = XorShift64::new(0x2545_F491_4F6C_DD1D);
    // At least 200,000 pairs; more when optimised.
    let n = if cfg!(debug_assertions) { 200_000 } else { 1_000_000 };
    let (mut hits, mut coplanar, mut degenerate) = (0usize, 0usize, 0usize);
    for case in 0..n {
        let (a, b) = random_int_pair(&mut rng);
        let expect = reference(a, b);
        hits += expect as usize;
        if orient(a[0], a[1], a[2], b[0]) == 0 && orient(a[0], a[1], a[2], b[1]) == 0 && orient(a[0], a[1], a[2], b[2]) == 0 {
            coplanar += 1;
        }
        if !matches!(simplex(a), Simplex::Tri(_)) || !matches!(simplex(b), Simplex::Tri(_)) {
            degenerate += 1;
        }
        let (fa, fb) = (to_float(a), to_float(b));
        // A random relabelling of the corners and argument order must not matter.
        let rot = rng.int(0, 2) as usize;
        let flip = rng.int(0, 1) == 1;
        let mut ga = [fa[rot], fa[(rot + 1) % 3], fa[(rot + 2) % 3]];
        if flip {
            ga.swap(1, 2);
        }
        for (x, y) in [(&fa, &fb), (&fb, &ga)] {
            let got = triangles_intersect(x, y);
            assert_eq!(got.is_some(), expect, "case {case}: {a:?} {b:?} got {got:?}");
            if let Some(q) = got {
                let (dx, dy) = (dist_point_triangle(&q, x), dist_point_triangle(&q, y));
                assert!(dx < 1e-9 && dy < 1e-9, "case {case}: {a:?} {b:?} point {q:?} at {dx:e}, {dy:e}");
            }
        }
        // The segment [a0, a1] (the degenerate triangle [a0, a1, a1]) against b.
        let expect_seg = reference([a[0], a[1], a[1]], b);
        let got = segment_triangle_intersection(&fa[0], &fa[1], &fb);
        assert_eq!(got.is_some(), expect_seg, "case {case}: segment {a:?} {b:?}");
        if let Some(q) = got {
            let (dx, dy) = (dist_point_segment(&q, &fa[0], &fa[1]), dist_point_triangle(&q, &fb));
            assert!(dx < 1e-9 && dy < 1e-9, "case {case}: segment point {q:?}");
        }
    }
    // The generator must actually exercise the special configurations.
    assert!(hits > n / 10 && hits < n * 9 / 10, "hits {hits}");
    assert!(coplanar > n / 10, "coplanar {coplanar}");
    assert!(degenerate > n / 10, "degenerate {degenerate}");
}

// ---------------------------------------------------------------------------------------
// Floating-point coordinates on a fine grid (integers up to 2^24 times 2^-10), so that the
// exact reference still applies while products are no longer exact in f64. Pairs are
// built nearly coplanar, nearly touching, or with slivers, by rounding to the grid.

/// A pair of integer triangles near each other; see above.
fn near_pair(rng: &mut XorShift64) -> ([Ip; 3], [Ip; 3]) {
    let bits = rng.int(3, 24) as u32;
    let r = (1i64 << bits) - 1;
    let half = (1i64 << 23) - 1 - r;
    let c = [rng.int(-half.max(0), half.max(0)), rng.int(-half.max(0), half.max(0)), rng.int(-half.max(0), half.max(0))];
    let pt = |rng: &mut XorShift64| -> Ip { [0, 1, 2].map(|k| (c[k] + rng.int(-r, r)) as i128) };
    let a = [pt(rng), pt(rng), pt(rng)];
    let mut b = [pt(rng), pt(rng), pt(rng)];
    // The point a0 + u (a1 - a0) + v (a2 - a0), rounded to the grid.
    let comb = |u: f64, v: f64| -> Ip { [0, 1, 2].map(|k| (a[0][k] as f64 + u * (a[1][k] - a[0][k]) as f64 + v * (a[2][k] - a[0][k]) as f64).round() as i128) };
    match rng.int(0, 7) {
        // b nearly in the plane of a (rounded to the grid).
        0..=2 => {
            for q in b.iter_mut() {
                let (u, v) = (rng.range(-0.5, 1.5), rng.range(-0.5, 1.5));
                *q = comb(u, v);
            }
        }
        // A corner of b on (rounded) an edge or the face of a.
        3 => {
            let u = rng.f();
            b[0] = comb(u, 0.0);
        }
        4 => {
            let (u, v) = (rng.f() * 0.5, rng.f() * 0.5);
            b[0] = comb(u, v);
        }
        // A sliver b (a rounded point of a segment).
        5 => {
            let u = rng.f();
            b[2] = [0, 1, 2].map(|k| (b[0][k] as f64 + u * (b[1][k] - b[0][k]) as f64).round() as i128);
        }
        _ => {}
    }
    (a, b)
}

#[test]
fn float_grid_agrees_with_exact_reference() {
    let mut rng = XorShift64::new(0x5555_1234_9876_ABCD);
    let n = if cfg!(debug_assertions) { 20_000 } else { 300_000 };
    let scale = 2f64.powi(-10);
    let (mut hits, mut extra_hits, mut worst) = (0, 0, 0.0f64);
    for case in 0..n {
        let (a, b) = near_pair(&mut rng);
        let expect = reference(a, b);
        let fa = a.map(|q| p(q[0] as f64 * scale, q[1] as f64 * scale, q[2] as f64 * scale));
        let fb = b.map(|q| p(q[0] as f64 * scale, q[1] as f64 * scale, q[2] as f64 * scale));
        let size = fa.iter().chain(fb.iter()).flat_map(|x| fa.iter().map(move |y| (x - y).amax())).fold(0.0, f64::max);
        for (x, y) in [(&fa, &fb), (&fb, &fa)] {
            let got = triangles_intersect(x, y);
            if expect {
                assert!(got.is_some(), "case {case}: missed {a:?} {b:?}");
                hits += 1;
            }
            if let Some(q) = got {
                let d = dist_point_triangle(&q, x).max(dist_point_triangle(&q, y)) / size;
                if !expect {
                    extra_hits += 1;
                }
                worst = worst.max(d);
                assert!(d < 1e-6, "case {case}: {a:?} {b:?} {q:?} {d:e} expect {expect}");
            }
        }
        // The segment [a0, a1] against b: never missed either.
        let expect_seg = reference([a[0], a[1], a[1]], b);
        let got = segment_triangle_intersection(&fa[0], &fa[1], &fb);
        assert!(!expect_seg || got.is_some(), "case {case}: segment missed {a:?} {b:?}");
        if let Some(q) = got {
            let d = dist_point_segment(&q, &fa[0], &fa[1]).max(dist_point_triangle(&q, &fb));
            assert!(d < 1e-6 * size, "case {case}: segment point {q:?} {d:e}");
        }
    }
    println!("hits {hits}, near-touching reported {extra_hits}, worst relative point distance {worst:e}");
    assert!(hits > n / 4, "hits {hits}");
}
