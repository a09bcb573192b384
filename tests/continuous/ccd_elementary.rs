//! The elementary equations (Redon et al. 2004 §5.2.1) and the interval Newton step (§5.2.4)
//! on a vertex crossing a face plane at a known time.
use ccd_guard::ccd::elementary::{CornerBounds, NewtonBounds, active_equations};
use ccd_guard::enclosure::{Interval, IntervalVector3};

/// Corners: A's vertex 0 moves as (0.1, 0.1, z0 + v t); A's others are far above;
/// B is a fixed big triangle in the plane z = 0.
fn corners(t: Interval, z0: f64, v: f64) -> [IntervalVector3; 6] {
    let p = |x: f64, y: f64, z: f64| IntervalVector3([Interval::point(x), Interval::point(y), Interval::point(z)]);
    [
        IntervalVector3([Interval::point(0.1), Interval::point(0.1), t * v + z0]),
        p(0.1, 0.1, 5.0),
        p(0.2, 0.1, 5.0),
        p(-1.0, -1.0, 0.0),
        p(3.0, -1.0, 0.0),
        p(-1.0, 3.0, 0.0),
    ]
}

fn velocities(v: f64) -> [IntervalVector3; 6] {
    let zero = IntervalVector3([Interval::point(0.0); 3]);
    let mut out = [zero; 6];
    out[0] = IntervalVector3([Interval::point(0.0), Interval::point(0.0), Interval::point(v)]);
    out
}

const VERTEX_A0_FACE_B: u16 = 1;

#[test]
fn plane_crossing_is_kept_only_where_the_root_is() {
    // z(t) = 0.6 - 2 t crosses z = 0 at t = 0.3.
    let (l, m, r) = (0.0, 0.5, 1.0);
    let over = corners(Interval::new(l, r), 0.6, -2.0);
    let at_m = corners(Interval::point(m), 0.6, -2.0);
    let vel = velocities(-2.0);
    let newton = NewtonBounds { positions: &over, velocities: &vel, at_split: &at_m, l, m, r };
    let out = active_equations(VERTEX_A0_FACE_B, &CornerBounds { positions: &over, newton: Some(newton) });
    assert_eq!(out.left, VERTEX_A0_FACE_B, "the root lies in [0, 0.5]");
    assert_eq!(out.right, 0, "Newton excludes [0.5, 1]");
    // Without Newton both halves stay.
    let out = active_equations(VERTEX_A0_FACE_B, &CornerBounds { positions: &over, newton: None });
    assert_eq!((out.left, out.right), (VERTEX_A0_FACE_B, VERTEX_A0_FACE_B));
}

#[test]
fn no_root_in_the_interval_is_culled() {
    // z(t) = 0.6 - 2 t on [0.4, 1]: always below the plane.
    let over = corners(Interval::new(0.4, 1.0), 0.6, -2.0);
    let out = active_equations(VERTEX_A0_FACE_B, &CornerBounds { positions: &over, newton: None });
    assert_eq!((out.left, out.right), (0, 0));
}

#[test]
fn newton_culls_what_interval_bounds_cannot() {
    // A wide enclosure of the vertex that still contains the plane, but whose slope
    // proves the root lies outside [l, r]: z(t) = 0.05 + 0.1 (t - 0.5) on [0, 1] with the
    // position bound widened to [-0.1, 0.2].
    let (l, m, r) = (0.0, 0.5, 1.0);
    let mut over = corners(Interval::new(l, r), 0.0, 0.0);
    over[0].0[2] = Interval::new(-0.1, 0.2);
    let mut at_m = corners(Interval::point(m), 0.0, 0.0);
    at_m[0].0[2] = Interval::point(0.05 + 0.0);
    let vel = velocities(0.01);
    let newton = NewtonBounds { positions: &over, velocities: &vel, at_split: &at_m, l, m, r };
    let out = active_equations(VERTEX_A0_FACE_B, &CornerBounds { positions: &over, newton: Some(newton) });
    // Root of 0.05 + 0.01 (t - 0.5) is at t = -4.5: outside.
    assert_eq!((out.left, out.right), (0, 0));
    assert_eq!(out.newton_culled, 1);
}
