//! The geometry and the motions of the experiments (the paper gives no control points).
use crate::motion::MotionDesign;
use ccd_guard::math::{Point3, Real, Vector3};
use nalgebra::{Unit, UnitQuaternion};

/// Regular octagon of circumradius r in the plane z = 0 (diameter 2r), first vertex at
/// angle π/8 + phase.
pub fn octagon(r: Real, phase: Real) -> Vec<Point3> {
    (0..8)
        .map(|k| {
            let a = std::f64::consts::PI / 8.0 + phase + k as Real * std::f64::consts::FRAC_PI_4;
            Point3::new(r * a.cos(), r * a.sin(), 0.0)
        })
        .collect()
}

/// The fixed polygon of Example 1: an octagon in the plane x = 0, centred at the origin.
pub fn fixed_octagon() -> Vec<Point3> {
    octagon(0.5, 0.1).iter().map(|p| Point3::new(0.0, p.x, p.y)).collect()
}

/// The rotation part shared by all motions: control quaternions Q_k = rot(axis, k·25°) ·
/// tilt, tilt = rot(x, 15°), axis = (0.3, 1, 0.2)/|.| (a pitching turn of 100° in total).
/// All pairwise products <Q_i, Q_j> are positive, so are the weights.
pub const ROTATION_TEXT: &str = "q(t) degree 4, Bernstein control quaternions Q_k = rot((0.3,1,0.2)/|.|, 25°·k)·rot(x, 15°), k = 0..4";

fn quats() -> [UnitQuaternion<Real>; 5] {
    let axis = Unit::new_normalize(Vector3::new(0.3, 1.0, 0.2));
    let tilt = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), 15f64.to_radians());
    std::array::from_fn(|k| UnitQuaternion::from_axis_angle(&axis, (25.0 * k as Real).to_radians()) * tilt)
}

/// Translation control points p_k = (−1.2 + 0.3 k, 0.1 sin(πk/8), z0) (k = 0..8): P sweeps
/// over the top of the fixed polygon (plane x = 0) from x = −1.2 to x = 1.2.
pub const TRANSLATION_TEXT: &str = "p_k = (-1.2 + 0.3k, 0.1 sin(pi k/8), 0), k = 0..8, over the weights w_k";

fn translations() -> [Vector3; 9] {
    std::array::from_fn(|k| {
        let k = k as Real;
        Vector3::new(-1.2 + 0.3 * k, 0.1 * (std::f64::consts::PI * k / 8.0).sin(), 0.0)
    })
}

pub fn ex1_design() -> MotionDesign {
    MotionDesign { quats: quats(), trans: translations() }
}

/// Example 1 offsets (constant translations of the motion): free and colliding.
pub const EX1_FREE: [Real; 3] = [0.0, 0.0, 0.83];
pub const EX1_COLLIDE: [Real; 3] = [0.0, 0.0, 0.5];

/// §7.2: the moving unit square [−½, ½]² × {0} and the fixed one {0} × [−½, ½]², each cut
/// into n × n sub-squares (counter-clockwise corner lists).
pub fn moving_squares(n: usize) -> Vec<Vec<Point3>> {
    grid(n, |u, v| Point3::new(u, v, 0.0))
}

pub fn fixed_squares(n: usize) -> Vec<Vec<Point3>> {
    grid(n, |u, v| Point3::new(0.0, u, v))
}

fn grid(n: usize, at: impl Fn(Real, Real) -> Point3) -> Vec<Vec<Point3>> {
    let c = |i: usize| -0.5 + i as Real / n as Real;
    let mut out = Vec::new();
    for i in 0..n {
        for j in 0..n {
            out.push(vec![at(c(i), c(j)), at(c(i + 1), c(j)), at(c(i + 1), c(j + 1)), at(c(i), c(j + 1))]);
        }
    }
    out
}

/// Grid vertices of the moving surface ((n+1)² points).
pub fn moving_grid_vertices(n: usize) -> Vec<Point3> {
    let c = |i: usize| -0.5 + i as Real / n as Real;
    (0..=n).flat_map(|i| (0..=n).map(move |j| Point3::new(c(i), c(j), 0.0))).collect()
}

/// §7.2 offsets: collision, near-collision, no-collision.
pub const TABLE_OFFSETS: [(&str, [Real; 3]); 3] = [("collision", [0.0, 0.0, 0.9]), ("near", [0.0, 0.0, 0.99]), ("no", [0.0, 0.0, 1.3])];
