//! Voronoi cells of a convex polyhedron's features as constraint planes (Lin 1993
//! ch. 3, App. B, ch. 3 flaring and §3.2.4–3.2.5 splitting).
//!
//! A plane keeps the side `n · x + w >= 0` and names the feature on its other side.
//! - Vertex V, for each edge VW: `(X - V) · (V - W) >= 0` → that edge.
//! - Edge T→H: `(X - T) · u >= 0` → T, `(H - X) · u >= 0` → H, and for each of its two
//!   faces the plane through the edge perpendicular to the face, kept on the side away
//!   from the face's interior (judged by the face's centroid) → that face.
//! - Face: for each side, the plane through the side perpendicular to the face, kept
//!   on the side of the centroid → the edge (or, for a diagonal, the sibling face).
//!   The face plane itself ("above") is tested separately (Lin 1993 App. B).
//!
//! §3.2.4–3.2.5: a vertex with more than five edges has its cone cut into pyramidal sub-cells.
//! The cone is spanned by the normals g_0..g_{k-1} of the faces around the vertex
//! (edge c_j lies between g_{j-1} and g_j); sub-cell s is spanned by g_0 and
//! g_{2s+1}..g_{2s+3} (a fan around g_0) and bounded by at most four planes: those of
//! its edges, and the planes through the vertex spanned by g_0 and its first or last
//! generator, shared with the neighbouring sub-cells. Every cell then has at most five side planes, so each point-cell test
//! costs the same.
//!
//! Flaring (ch. 3): a point counts as outside a plane only when it is beyond it by more
//! than `offset + FLARE_TILT · r` (r: its distance to the feature), so neighbouring
//! cells overlap a little and ties cannot flip back and forth. Both terms are kept
//! small: a pair accepted thanks to the flare is off by about the flare's angle times
//! the bodies' size, and an offset counts as the angle `offset / distance` near
//! contact, so the offset is only a few rounding units.
use super::feature::Feat;
use super::winged_edge::{MAX_FACE_SIDES, WingedEdge};
use crate::math::{Point3, Real, Vector3};

/// Angle (radians) by which every plane is tilted outwards.
pub(super) const FLARE_TILT: Real = 1e-10;

#[derive(Clone, Copy, Debug)]
pub(super) struct Plane {
    pub n: Vector3,
    pub w: Real,
    pub to: Feat,
}

impl Plane {
    fn through(n: Vector3, p: &Point3, to: Feat) -> Self {
        Plane { n, w: -n.dot(&p.coords), to }
    }

    #[inline]
    pub fn value(&self, p: &Point3) -> Real {
        self.n.dot(&p.coords) + self.w
    }
}

/// A vertex's cone, or one sub-cell of it.
#[derive(Clone, Copy, Debug)]
pub(super) struct SubCone {
    pub vertex: u32,
    pub start: u32,
    pub len: u32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Cells {
    pub planes: Vec<Plane>,
    pub subcones: Vec<SubCone>,
    /// Sub-cells of vertex v: `subcones[vertex_first[v]..vertex_first[v + 1]]`.
    pub vertex_first: Vec<u32>,
    /// For each edge, the sub-cell of its tail and of its head that it borders.
    pub edge_ends: Vec<[u32; 2]>,
    /// Edge e's four planes are `planes[edge_base + 4e..]`.
    pub edge_base: u32,
    /// Face f's side planes: `planes[face_ranges[f].0..][..face_ranges[f].1]`.
    pub face_ranges: Vec<(u32, u32)>,
}

impl Cells {
    /// `rings[v]` lists the polygons around vertex v in the order of its edges
    /// (edge j between polygons j-1 and j); `normals` are the polygons' normals.
    pub(super) fn build(poly: &WingedEdge, rings: &[Vec<u32>], normals: &[Vector3]) -> Cells {
        let mut cells = Cells { edge_ends: vec![[u32::MAX; 2]; poly.edges.len()], ..Cells::default() };
        for v in 0..poly.vertices.len() as u32 {
            cells.vertex_first.push(cells.subcones.len() as u32);
            cells.vertex_cone(poly, v, &rings[v as usize], normals);
        }
        cells.vertex_first.push(cells.subcones.len() as u32);
        cells.edge_base = cells.planes.len() as u32;
        for e in 0..poly.edges.len() as u32 {
            cells.edge_wedge(poly, e);
        }
        for f in 0..poly.faces.len() as u32 {
            let start = cells.planes.len() as u32;
            let face = &poly.faces[f as usize];
            for s in poly.face_sides(f) {
                let (a, b) = (poly.vertex(s.a), poly.vertex(s.b));
                let mut k = face.normal.cross(&(b - a)).normalize();
                if k.dot(&(face.centroid - a)) < 0.0 {
                    k = -k;
                }
                cells.planes.push(Plane::through(k, &a, s.across));
            }
            cells.face_ranges.push((start, cells.planes.len() as u32 - start));
        }
        cells
    }

    fn vertex_cone(&mut self, poly: &WingedEdge, v: u32, ring: &[u32], normals: &[Vector3]) {
        let p = poly.vertex(v);
        let edges = poly.vertex_edges(v);
        let k = edges.len();
        let edge_plane = |e: u32| {
            let ed = &poly.edges[e as usize];
            let w = if ed.tail == v { ed.head } else { ed.tail };
            Plane::through((p - poly.vertex(w)).normalize(), &p, Feat::E(e))
        };
        let record_end = |cells: &mut Cells, e: u32, sub: u32| {
            let end = if poly.edges[e as usize].tail == v { 0 } else { 1 };
            cells.edge_ends[e as usize][end] = sub;
        };
        if k <= MAX_FACE_SIDES {
            let sub = self.subcones.len() as u32;
            let start = self.planes.len() as u32;
            for &e in edges {
                self.planes.push(edge_plane(e));
                record_end(self, e, sub);
            }
            self.subcones.push(SubCone { vertex: v, start, len: k as u32 });
            return;
        }
        let g = |j: usize| normals[ring[j] as usize];
        let first = self.subcones.len() as u32;
        let mut a = 1;
        let mut s = 0u32;
        loop {
            let b = (a + 2).min(k - 1);
            let sub = first + s;
            let start = self.planes.len() as u32;
            // Between g_0 and g_a: edge c_1 or the plane shared with sub-cell s-1.
            if a == 1 {
                self.planes.push(edge_plane(edges[1]));
                record_end(self, edges[1], sub);
            } else {
                self.planes.push(split_plane(&p, &g(0), &g(a), &g(a + 1), Feat::V(sub - 1)));
            }
            for &e in &edges[a + 1..=b] {
                self.planes.push(edge_plane(e));
                record_end(self, e, sub);
            }
            // Between g_b and g_0: edge c_0 or the plane shared with sub-cell s+1.
            if b == k - 1 {
                self.planes.push(edge_plane(edges[0]));
                record_end(self, edges[0], sub);
            } else {
                self.planes.push(split_plane(&p, &g(0), &g(b), &g(b - 1), Feat::V(sub + 1)));
            }
            self.subcones.push(SubCone { vertex: v, start, len: self.planes.len() as u32 - start });
            if b == k - 1 {
                break;
            }
            a = b;
            s += 1;
        }
    }

    fn edge_wedge(&mut self, poly: &WingedEdge, e: u32) {
        let ed = poly.edges[e as usize];
        let (t, h) = poly.edge_points(e);
        let u = (h - t).normalize();
        let [tail_sub, head_sub] = self.edge_ends[e as usize];
        self.planes.push(Plane::through(u, &t, Feat::V(tail_sub)));
        self.planes.push(Plane::through(-u, &h, Feat::V(head_sub)));
        for f in [ed.left, ed.right] {
            let face = &poly.faces[f as usize];
            let mut m = u.cross(&face.normal).normalize();
            if m.dot(&(face.centroid - t)) > 0.0 {
                m = -m;
            }
            self.planes.push(Plane::through(m, &t, Feat::F(f)));
        }
    }

    /// The sub-cell of vertex `v`'s cone that `p` lies in (or near), by bisection over
    /// the planes that split the fan (they all contain the ray along g_0, so for a
    /// point in the cone their signs change once). O(log k); the walk uses it where
    /// it enters a vertex without knowing the sub-cell (a public warm-start pair).
    pub(super) fn locate_subcell(&self, v: u32, p: &Point3) -> u32 {
        let (first, end) = (self.vertex_first[v as usize], self.vertex_first[v as usize + 1]);
        let (mut lo, mut hi) = (first, end - 1);
        // Invariant: the answer is in lo..=hi; sub-cell s < end - 1 ends with the
        // plane it shares with s + 1, kept on s's side.
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let c = &self.subcones[mid as usize];
            let split = &self.planes[(c.start + c.len - 1) as usize];
            if split.value(p) >= 0.0 {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// The side planes of a cell.
    #[inline]
    pub(super) fn cell(&self, f: Feat) -> &[Plane] {
        let (start, len) = match f {
            Feat::V(s) => {
                let c = &self.subcones[s as usize];
                (c.start, c.len)
            }
            Feat::E(e) => (self.edge_base + 4 * e, 4),
            Feat::F(f) => self.face_ranges[f as usize],
        };
        &self.planes[start as usize..(start + len) as usize]
    }

    /// The point-cell test (Lin 1993 App. B) with flared planes: `None` when `p` (in the
    /// polyhedron's frame) lies in the cell of `f` (for a face: in its prism; the face
    /// plane is not tested), else the neighbour behind the most violated plane.
    ///
    /// A vertex's cone is tested sub-cell by sub-cell (§3.2.4–3.2.5): a violated plane between
    /// two sub-cells moves the test to the next one (no feature changes, so this is
    /// not a step of the walk), and only an edge is ever returned.
    ///
    /// The flare is `offset` plus `FLARE_TILT` times the distance of `p` from the
    /// feature (vertex, edge line or face plane), i.e. a tilt of every plane about the
    /// feature: a cell then admits directions at most `FLARE_TILT` (plus
    /// `offset / distance`) outside it, which bounds how far from the true distance a
    /// pair it certifies can be (about that angle times the bodies' size).
    #[inline]
    pub(super) fn violated(&self, poly: &WingedEdge, f: Feat, p: &Point3, offset: Real) -> Option<Feat> {
        let r = match f {
            Feat::V(s) => (p - poly.vertices[self.subcones[s as usize].vertex as usize]).norm(),
            Feat::E(e) => {
                let (t, h) = poly.edge_points(e);
                let u = h - t;
                (p - t).cross(&u).norm() / u.norm()
            }
            Feat::F(f) => {
                let face = &poly.faces[f as usize];
                (face.normal.dot(&p.coords) - face.offset).abs()
            }
        };
        let slack = -(offset + FLARE_TILT * r);
        let Feat::V(mut s) = f else { return most_violated(self.cell(f), p, slack, true) };
        let mut came_from = u32::MAX;
        loop {
            match most_violated(self.cell(Feat::V(s)), p, slack, true) {
                Some(Feat::V(t)) if t != came_from => {
                    came_from = s;
                    s = t;
                }
                Some(Feat::V(_)) => return most_violated(self.cell(Feat::V(s)), p, slack, false),
                other => return other,
            }
        }
    }
}

/// The neighbour behind the plane `p` violates most (by more than `-slack`), among
/// all planes or (`splits == false`) only those towards other features.
#[inline]
fn most_violated(planes: &[Plane], p: &Point3, slack: Real, splits: bool) -> Option<Feat> {
    let mut worst = slack;
    let mut to = None;
    for pl in planes {
        let s = pl.value(p);
        if s < worst && (splits || !matches!(pl.to, Feat::V(_))) {
            worst = s;
            to = Some(pl.to);
        }
    }
    to
}

/// The plane through vertex `p` spanned by the cone generators `g0` and `ga`, kept on
/// the side of `inside` (another generator of the sub-cell).
fn split_plane(p: &Point3, g0: &Vector3, ga: &Vector3, inside: &Vector3, to: Feat) -> Plane {
    let mut n = g0.cross(ga);
    let len = n.norm();
    n = if len > 0.0 { n / len } else { *inside };
    if n.dot(inside) < 0.0 {
        n = -n;
    }
    Plane::through(n, p, to)
}
