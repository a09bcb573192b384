//! The expanding polytope algorithm (EPA, van den Bergen, "Proximity queries and
//! penetration depth computation on 3D game objects", 2001) on the difference of two
//! cores: the 3D counterpart of Keerthi & Sridharan's `compute_I` (section 3), which scans the
//! edges of the planar Minkowski difference for the one nearest the origin. In space
//! the difference is only known through its support function, so a polytope inside
//! it, holding the origin, is grown towards its boundary where that boundary is
//! nearest the origin.
//!
//! Each step takes the face of the polytope nearest the origin (its distance `l` is a
//! lower bound of the depth: the polytope lies inside the difference) and the support
//! point `w` along the face's outward normal `n` (`h(n) = n·w` is an upper bound: it is
//! the length of a translation along `n` that separates). The step stops when the two
//! bounds meet within the tolerance; otherwise `w` replaces every face it sees.
//!
//! The answer is the best upper bound found, so that the reported translation always
//! separates; on a cap of iterations, a face set that would tear (a horizon that is
//! not one loop), the best so far is returned and flagged as not converged (the
//! caller then improves it along the ray exits, see `translational`). This happens
//! where the minimum is not isolated: two like cylinders at one pose, whose difference
//! is nearest the origin along a whole circle of its side, which EPA would have to
//! tessellate all round.
//!
//! Faces keep their neighbours across each edge; the nearest face comes from a heap.
use super::difference::{Difference, SupportPoint};
use crate::math::{Point3, Real, Vector3};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Steps at most (each adds one vertex; curved cores need a few dozen near the
/// contact, polytopes at most their vertex count).
const MAX_ITERATIONS: usize = 128;
/// Relative tolerance on the depth.
const RELATIVE_TOLERANCE: Real = 1e-10;
/// Absolute tolerance, as a fraction of the coordinates' size.
pub(super) const SCALE_TOLERANCE: Real = 1e-12;

/// What EPA found on the cores, in A's frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Expansion {
    /// Unit outward normal of the cores' difference: translating B's core by
    /// `height * normal` separates the cores.
    pub normal: Vector3,
    /// `h(normal)`, an upper bound of the cores' depth.
    pub height: Real,
    /// The distance of the final polytope's nearest face, a lower bound when the
    /// origin is inside the polytope.
    pub lower: Real,
    /// Points of the cores, `point_a - point_b = height * normal`.
    pub point_a: Point3,
    pub point_b: Point3,
    pub iterations: usize,
    pub converged: bool,
}

#[derive(Clone, Copy)]
struct Face {
    v: [u32; 3],
    /// The face across edge `k` (from `v[k]` to `v[k + 1]`).
    adj: [u32; 3],
    /// Unit outward normal (zero for a degenerate face).
    normal: Vector3,
    /// Signed distance of the face's plane from the origin (infinite if degenerate).
    dist: Real,
    alive: bool,
}

/// A face in the queue, nearest first.
struct Queued(Real, u32);

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

/// A closed triangulated polytope with outward faces and their adjacency.
struct Polytope {
    vertices: Vec<SupportPoint>,
    faces: Vec<Face>,
    /// Per face, the step that last marked it visible.
    mark: Vec<u32>,
    step: u32,
    /// Buffers of `add_point`.
    stack: Vec<usize>,
    region: Vec<usize>,
    /// Horizon edges (from, to, face outside).
    horizon: Vec<(u32, u32, u32)>,
    /// The faces with a plane, by distance (dead ones are skipped when popped).
    queue: BinaryHeap<Queued>,
}

impl Polytope {
    /// A face on `v` with its plane (adjacency to be filled in).
    fn face(&self, v: [u32; 3]) -> Face {
        let p = v.map(|i| self.vertices[i as usize].w);
        // The normal from the two shorter edges (at the corner opposite the longest).
        let lens = [(p[1] - p[0]).norm_squared(), (p[2] - p[1]).norm_squared(), (p[0] - p[2]).norm_squared()];
        let corner = if lens[0] >= lens[1] && lens[0] >= lens[2] {
            2
        } else if lens[1] >= lens[2] {
            0
        } else {
            1
        };
        let (c, next, prev) = (p[corner], p[(corner + 1) % 3], p[(corner + 2) % 3]);
        let n = (next - c).cross(&(prev - c));
        let len = n.norm();
        if !(len > 0.0 && len.is_finite()) {
            return Face { v, adj: [u32::MAX; 3], normal: Vector3::zeros(), dist: Real::INFINITY, alive: true };
        }
        let normal = n / len;
        let dist = (normal.dot(&p[0]) + normal.dot(&p[1]) + normal.dot(&p[2])) / 3.0;
        Face { v, adj: [u32::MAX; 3], normal, dist, alive: true }
    }

    fn push_face(&mut self, v: [u32; 3], adj: [u32; 3]) {
        let mut f = self.face(v);
        f.adj = adj;
        if f.dist.is_finite() {
            self.queue.push(Queued(f.dist, self.faces.len() as u32));
        }
        self.faces.push(f);
        self.mark.push(0);
    }

    /// A tetrahedron with outward faces; `None` when flat.
    fn tetrahedron(p: [SupportPoint; 4]) -> Option<Self> {
        let mut p = p;
        let volume = (p[1].w - p[0].w).dot(&(p[2].w - p[0].w).cross(&(p[3].w - p[0].w)));
        if !(volume != 0.0 && volume.is_finite()) {
            return None;
        }
        if volume > 0.0 {
            // Face (0, 1, 2) must turn its normal away from corner 3.
            p.swap(1, 2);
        }
        let mut poly = Polytope {
            vertices: p.to_vec(),
            faces: Vec::with_capacity(128),
            mark: Vec::with_capacity(128),
            step: 0,
            stack: Vec::new(),
            region: Vec::new(),
            horizon: Vec::new(),
            queue: BinaryHeap::with_capacity(128),
        };
        // Faces 0..4 and, per edge, the face across it.
        poly.push_face([0, 1, 2], [1, 2, 3]);
        poly.push_face([0, 3, 1], [3, 2, 0]);
        poly.push_face([1, 3, 2], [1, 3, 0]);
        poly.push_face([0, 2, 3], [0, 2, 1]);
        Some(poly)
    }

    /// Replaces the faces `w` sees (found from `start` across edges) by a cone from `w`
    /// over their horizon. `Err` (the polytope unchanged) when the horizon is not a
    /// single loop.
    fn add_point(&mut self, w: SupportPoint, start: usize, visibility: Real) -> Result<(), ()> {
        self.step += 1;
        let step = self.step;
        self.mark[start] = step;
        self.stack.clear();
        self.region.clear();
        self.horizon.clear();
        self.stack.push(start);
        while let Some(f) = self.stack.pop() {
            self.region.push(f);
            for k in 0..3 {
                let g = self.faces[f].adj[k] as usize;
                let face = self.faces.get(g).ok_or(())?;
                if self.mark[g] == step || !face.alive {
                    continue;
                }
                if face.dist.is_finite() && face.normal.dot(&w.w) - face.dist > visibility {
                    self.mark[g] = step;
                    self.stack.push(g);
                }
            }
        }
        for &f in &self.region {
            let face = &self.faces[f];
            for k in 0..3 {
                let g = face.adj[k];
                if self.mark[g as usize] != step {
                    self.horizon.push((face.v[k], face.v[(k + 1) % 3], g));
                }
            }
        }
        // Order the horizon into one loop (it is short: a linear search will do).
        let n = self.horizon.len();
        if n < 3 {
            return Err(());
        }
        for i in 1..n {
            let end = self.horizon[i - 1].1;
            let next = (i..n).find(|&j| self.horizon[j].0 == end).ok_or(())?;
            self.horizon.swap(i, next);
        }
        if self.horizon[n - 1].1 != self.horizon[0].0 || (1..n).any(|i| self.horizon[..i].iter().any(|e| e.0 == self.horizon[i].0)) {
            return Err(());
        }
        let k = self.vertices.len() as u32;
        self.vertices.push(w);
        for i in 0..self.region.len() {
            let f = self.region[i];
            self.faces[f].alive = false;
        }
        let first = self.faces.len() as u32;
        for i in 0..n {
            let (a, b, out) = self.horizon[i];
            let id = first + i as u32;
            let next = first + ((i + 1) % n) as u32;
            let prev = first + ((i + n - 1) % n) as u32;
            self.push_face([a, b, k], [out, next, prev]);
            // The outside face now borders the new one across edge (b, a).
            let o = &mut self.faces[out as usize];
            for j in 0..3 {
                if o.v[j] == b && o.v[(j + 1) % 3] == a {
                    o.adj[j] = id;
                }
            }
        }
        Ok(())
    }

    /// Witness points for the unit direction `n`: the ray from the origin along `n`
    /// leaves the polytope at `t n` through one face; that point's barycentric weights
    /// in the face, applied to the points of A and B stored with its corners, give a
    /// point of A and one of B with `a - b = t n`, each on its shape's supporting plane
    /// wherever the face lies on the difference's boundary. `None` when no face faces
    /// `n`.
    ///
    /// The ray meets several faces at the same `t` where a facet of the difference is
    /// split into coplanar triangles (the parallelogram of an edge-edge contact, a box
    /// face): which of them is nearest is then decided by rounding, and the origin's
    /// projection may lie in another one, outside the nearest (weights down to -0.5
    /// were seen; clamped into the wrong triangle, they left `a - b` off the normal by
    /// centimetres, and the correction of `a - b` then pushed both points off their
    /// shapes). Among the faces the ray leaves through within `tolerance`, the one whose
    /// least weight is largest holds the point; only rounding is clamped.
    fn exit_witness(&self, n: &Vector3, tolerance: Real) -> Option<(Point3, Point3)> {
        let exits = || {
            self.faces.iter().filter(|f| f.alive && f.dist.is_finite()).filter_map(|f| {
                let c = f.normal.dot(n);
                let t = f.dist / c;
                (c > 0.0 && t.is_finite()).then_some((t, f))
            })
        };
        let nearest = exits().map(|(t, _)| t).fold(Real::INFINITY, Real::min);
        if !nearest.is_finite() {
            return None;
        }
        let mut best: Option<(Real, [Real; 3], &Face)> = None;
        for (t, f) in exits().filter(|(t, _)| *t <= nearest + tolerance) {
            let x = n * t;
            let v = f.v.map(|i| self.vertices[i as usize].w);
            let mut l = [0.0; 3];
            for (i, li) in l.iter_mut().enumerate() {
                *li = (v[(i + 1) % 3] - x).cross(&(v[(i + 2) % 3] - x)).dot(&f.normal);
            }
            let sum: Real = l.iter().sum();
            if !(sum > 0.0 && sum.is_finite()) {
                continue;
            }
            let l = l.map(|x| x / sum);
            let least = l.iter().copied().fold(Real::INFINITY, Real::min);
            if best.as_ref().is_none_or(|b| least > b.0) {
                best = Some((least, l, f));
            }
        }
        let (_, l, f) = best?;
        let l = l.map(|x| x.max(0.0));
        let sum: Real = l.iter().sum();
        let mut a = Vector3::zeros();
        let mut b = Vector3::zeros();
        for (&i, &li) in f.v.iter().zip(&l) {
            let corner = &self.vertices[i as usize];
            a += corner.a.coords * (li / sum);
            b += corner.b.coords * (li / sum);
        }
        Some((Point3::from(a), Point3::from(b)))
    }

    /// The points of A and B of the polytope's corner farthest along `n`: witnesses of
    /// last resort, where no face faces `n` (rounding on a degenerate polytope).
    fn farthest(&self, n: &Vector3) -> (Point3, Point3) {
        let v = self.vertices.iter().max_by(|p, q| n.dot(&p.w).total_cmp(&n.dot(&q.w))).expect("a polytope has corners");
        (v.a, v.b)
    }
}

/// EPA on the cores of `diff` from the seed polytope (4 points, or 5: a tetrahedron and
/// a point beyond one of its faces). `None` when the seed is flat or nothing finite
/// comes out.
pub(super) fn expand(diff: &Difference, seed: &[SupportPoint]) -> Option<Expansion> {
    if seed.len() < 4 {
        return None;
    }
    let mut poly = Polytope::tetrahedron([seed[0], seed[1], seed[2], seed[3]])?;
    let scale = diff.scale();
    let visibility = SCALE_TOLERANCE * 1e-1 * scale;
    for s in &seed[4..] {
        let start = (0..poly.faces.len()).max_by(|&i, &j| {
            let (fi, fj) = (&poly.faces[i], &poly.faces[j]);
            (fi.normal.dot(&s.w) - fi.dist).total_cmp(&(fj.normal.dot(&s.w) - fj.dist))
        })?;
        poly.add_point(*s, start, visibility).ok()?;
    }
    // The direction with the least `h` so far, and `h`.
    let mut best: Option<(Vector3, Real)> = None;
    let mut iterations = 0;
    let mut converged = false;
    let mut lower = Real::NEG_INFINITY;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        // The nearest live face (it stays queued until it dies).
        let fi = loop {
            match poly.queue.peek() {
                None => break None,
                Some(q) if poly.faces[q.1 as usize].alive => break Some(q.1 as usize),
                Some(_) => {
                    poly.queue.pop();
                }
            }
        };
        let Some(fi) = fi else { break };
        let face = poly.faces[fi];
        lower = face.dist;
        let n = face.normal;
        let s = diff.core_support(&n);
        let h = n.dot(&s.w);
        if !h.is_finite() {
            break;
        }
        if best.is_none_or(|(_, height)| h < height) {
            best = Some((n, h));
        }
        let upper = best.map_or(h, |(_, height)| height);
        let tolerance = (RELATIVE_TOLERANCE * upper.abs()).max(SCALE_TOLERANCE * scale);
        if upper - lower <= tolerance {
            converged = true;
            // Take the nearest face's direction when it separates as well as the best:
            // it is the difference's facet nearest the origin.
            if h - lower <= tolerance {
                best = Some((n, h));
            }
            break;
        }
        // (`s` is no vertex: every vertex lies below the face's plane, `s` above it.)
        if poly.add_point(s, fi, visibility).is_err() {
            break;
        }
    }
    let (normal, height) = best?;
    // The witnesses of the chosen direction, from the polytope as it ends (the faces
    // seen when that direction was found may have been replaced since): the exit point
    // `t normal` lies within the tolerance below `height` when converged (`t` is
    // between the nearest face's distance and `h(normal)`), and the two points are
    // moved apart along the normal to make up the difference.
    let tolerance = (RELATIVE_TOLERANCE * height.abs()).max(SCALE_TOLERANCE * scale);
    let (mut point_a, mut point_b) = poly.exit_witness(&normal, tolerance).unwrap_or_else(|| poly.farthest(&normal));
    let error = (point_a - point_b - normal * height) * 0.5;
    point_a -= error;
    point_b += error;
    Some(Expansion { normal, height, lower, point_a, point_b, iterations, converged })
}
