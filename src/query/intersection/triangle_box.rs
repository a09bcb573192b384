//! Triangle against axis-aligned box by separating axes (Akenine-Möller's 13 axes).
use crate::math::{Real, Triangle, Vector3};

/// Whether the closed triangle and the box `[-h, h]` overlap. Errs only towards overlap.
pub fn triangle_box_overlap(tri: &Triangle, h: &Vector3) -> bool {
    let v = [tri[0].coords, tri[1].coords, tri[2].coords];
    let scale = 1.0 + h.amax() + v.iter().map(|p| p.amax()).fold(0.0, Real::max);
    let slack = 1e-12 * scale;
    // The box's face normals.
    for i in 0..3 {
        let lo = v[0][i].min(v[1][i]).min(v[2][i]);
        let hi = v[0][i].max(v[1][i]).max(v[2][i]);
        if lo > h[i] + slack || hi < -h[i] - slack {
            return false;
        }
    }
    let e = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    // The triangle's normal.
    let n = e[0].cross(&e[1]);
    let d = n.dot(&v[0]);
    let r = h.dot(&n.abs());
    if (d).abs() > r + slack * n.abs().sum() {
        return false;
    }
    // Cross products of box axes and triangle edges.
    for edge in &e {
        for i in 0..3 {
            let mut axis_unit = Vector3::zeros();
            axis_unit[i] = 1.0;
            let axis = axis_unit.cross(edge);
            let p = [axis.dot(&v[0]), axis.dot(&v[1]), axis.dot(&v[2])];
            let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
            let r = h.dot(&axis.abs());
            let s = slack * axis.abs().sum();
            if lo > r + s || hi < -r - s {
                return false;
            }
        }
    }
    true
}
