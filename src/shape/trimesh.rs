//! Triangle meshes with their OBB hierarchy and the data needed for solid containment.
//!
//! A mesh also keeps its convex bound, the hull of a few extreme vertices grown by a
//! margin ([`MeshHull`]); the reduction that picks them measures the margin with GJK, a
//! query, so it is made above (`query::mesh_hull`, which gives `TriMesh::hull`) and kept
//! here once made ([`TriMesh::hull_with`]).
use crate::bounding_volume::Aabb;
use crate::math::{Point3, Real, Triangle, Vector3};
use crate::partitioning::ObbTree;
use crate::shape::{SupportMap, VertexGraph};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Why vertices and triangles make no mesh.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeshError {
    #[error("mesh has no triangles")]
    NoTriangles,
    #[error("mesh vertex {0} is not finite")]
    NonFiniteVertex(usize),
    #[error("mesh triangle {0} refers to a vertex that does not exist")]
    MissingVertex(usize),
}

#[derive(Clone, Debug)]
pub struct TriMesh {
    vertices: Vec<Point3>,
    triangles: Vec<[u32; 3]>,
    aabb: Aabb,
    obb_tree: ObbTree,
    /// One vertex of each connected component (vertices welded by position).
    component_representatives: Vec<u32>,
    /// Every edge is shared by exactly two triangles: the mesh bounds a solid.
    closed: bool,
    /// The convex bound: reduced when first asked for.
    hull: OnceLock<ReducedHull>,
    /// Per triangle, the triangle across each of its edges (`NO_NEIGHBOUR` on a border).
    /// Built when first asked for.
    neighbours: OnceLock<Vec<[u32; 3]>>,
}

/// No triangle across this edge.
const NO_NEIGHBOUR: u32 = u32::MAX;

impl TriMesh {
    /// Builds a mesh; fails on an index out of range, a non-finite vertex or no triangles.
    pub fn new(vertices: Vec<Point3>, triangles: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        if triangles.is_empty() {
            return Err(MeshError::NoTriangles);
        }
        if let Some(v) = vertices.iter().position(|v| !v.coords.iter().all(|c| c.is_finite())) {
            return Err(MeshError::NonFiniteVertex(v));
        }
        let n = vertices.len() as u32;
        if let Some(t) = triangles.iter().position(|t| t.iter().any(|&i| i >= n)) {
            return Err(MeshError::MissingVertex(t));
        }
        let aabb = Aabb::from_points(triangles.iter().flatten().map(|&i| &vertices[i as usize]));
        let obb_tree = ObbTree::build(&vertices, &triangles);
        let (component_representatives, closed) = topology(&vertices, &triangles);
        Ok(Self { vertices, triangles, aabb, obb_tree, component_representatives, closed, hull: OnceLock::new(), neighbours: OnceLock::new() })
    }

    pub fn vertices(&self) -> &[Point3] {
        &self.vertices
    }

    pub fn triangle_indices(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    pub fn triangle(&self, i: u32) -> Triangle {
        let t = self.triangles[i as usize];
        [self.vertices[t[0] as usize], self.vertices[t[1] as usize], self.vertices[t[2] as usize]]
    }

    /// Triangle `i`, if the mesh has one of that index.
    pub fn try_triangle(&self, i: u32) -> Option<Triangle> {
        (i < self.triangles.len() as u32).then(|| self.triangle(i))
    }

    pub fn local_aabb(&self) -> Aabb {
        self.aabb
    }

    pub fn obb_tree(&self) -> &ObbTree {
        &self.obb_tree
    }

    /// The mesh's convex bound: the extreme vertices and margin that `reduce` picks from
    /// the distinct vertices (those of the triangles, sorted, each position once) when
    /// first asked for, kept with the mesh. `query::mesh_hull` is the one reduction (as
    /// `TriMesh::hull`).
    pub(crate) fn hull_with(&self, reduce: impl FnOnce(&[Point3]) -> ReducedHull) -> MeshHull<'_> {
        let hull = self.hull.get_or_init(|| {
            let mut distinct: Vec<Point3> = self.triangles.iter().flatten().map(|&i| self.vertices[i as usize]).collect();
            distinct.sort_by(|a, b| a.coords.as_slice().partial_cmp(b.coords.as_slice()).expect("finite"));
            distinct.dedup();
            reduce(&distinct)
        });
        MeshHull { vertices: &hull.vertices, margin: hull.margin, graph: hull.graph.as_ref() }
    }

    /// The triangles across the edges of triangle `t` (vertices welded by position; one
    /// per edge, none on a border), found when first asked for: where a contact slides
    /// over a surface, the next triangle to touch is mostly one of these.
    pub fn edge_neighbours(&self, t: u32) -> impl Iterator<Item = u32> + '_ {
        let table = self.neighbours.get_or_init(|| edge_neighbours(&self.vertices, &self.triangles));
        table.get(t as usize).into_iter().flatten().copied().filter(|&n| n != NO_NEIGHBOUR)
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// One vertex of every connected component: if none of the surface touches a
    /// solid, the mesh lies inside it exactly when one of these does.
    pub fn component_representatives(&self) -> impl Iterator<Item = Point3> + '_ {
        self.component_representatives.iter().map(|&i| self.vertices[i as usize])
    }

    /// Point-in-solid by ray parity; always false for an open mesh. A ray that grazes an
    /// edge or vertex is discarded and another direction is tried.
    pub fn contains_point(&self, p: &Point3) -> bool {
        if !self.closed || !self.aabb.contains_point(p) {
            return false;
        }
        const DIRECTIONS: [[Real; 3]; 4] = [
            [0.5773502691896258, 0.5773662691896258, 0.5773342691896258],
            [-0.2672612419124244, 0.8017837257372732, -0.5345224838248488],
            [0.8728715609439696, -0.2182178902359924, 0.4364357804719848],
            [-0.4082482904638631, -0.4082482904638631, 0.8164965809277261],
        ];
        for d in DIRECTIONS {
            if let Some(crossings) = self.count_crossings(p, &Vector3::from(d)) {
                return crossings % 2 == 1;
            }
        }
        false
    }

    /// Crossings of the ray `p + s d`, `s > 0`, or `None` if it grazes an edge.
    fn count_crossings(&self, p: &Point3, d: &Vector3) -> Option<usize> {
        const GRAZE: Real = 1e-10;
        let mut count = 0;
        for i in 0..self.triangles.len() as u32 {
            let [a, b, c] = self.triangle(i);
            let (e1, e2) = (b - a, c - a);
            let h = d.cross(&e2);
            let det = e1.dot(&h);
            let scale = e1.norm() * e2.norm();
            if det.abs() <= GRAZE * scale {
                continue; // ray parallel to the triangle's plane
            }
            let s = p - a;
            let u = s.dot(&h) / det;
            let q = s.cross(&e1);
            let v = d.dot(&q) / det;
            let t = e2.dot(&q) / det;
            let w = 1.0 - u - v;
            if t <= 0.0 {
                continue;
            }
            if u.abs() < GRAZE || v.abs() < GRAZE || w.abs() < GRAZE {
                if u >= -GRAZE && v >= -GRAZE && w >= -GRAZE {
                    return None;
                }
                continue;
            }
            if u > 0.0 && v > 0.0 && w > 0.0 {
                count += 1;
            }
        }
        Some(count)
    }
}

/// A mesh's convex bound as the reduction made it (`query::mesh_hull`): a few extreme
/// vertices, how far every other vertex may lie outside their hull (the hull of these
/// grown by the margin holds the mesh), and where the hull was built, its vertex graph
/// (`vertices` then are the hull's corners, in the graph's order).
#[derive(Clone, Debug)]
pub struct ReducedHull {
    pub vertices: Vec<Point3>,
    pub margin: Real,
    pub graph: Option<VertexGraph>,
}

/// A convex bound of a mesh through its support function: the hull of a few extreme
/// vertices grown by a margin that covers every other vertex. Its support points come
/// by hill climbing where it has the hull's vertex graph, else by a scan.
pub struct MeshHull<'a> {
    vertices: &'a [Point3],
    margin: Real,
    graph: Option<&'a VertexGraph>,
}

impl<'a> MeshHull<'a> {
    /// The hull of `vertices` grown by `margin` (support points by a scan).
    pub fn new(vertices: &'a [Point3], margin: Real) -> Self {
        Self { vertices, margin, graph: None }
    }

    /// The vertices whose hull (grown by the margin) holds the mesh.
    pub fn vertices(&self) -> &'a [Point3] {
        self.vertices
    }

    /// The hull's vertex graph, where support points come by hill climbing.
    pub fn graph(&self) -> Option<&'a VertexGraph> {
        self.graph
    }
}

impl SupportMap for MeshHull<'_> {
    fn margin(&self) -> Real {
        self.margin
    }

    fn core_support(&self, d: &Vector3) -> Point3 {
        match self.graph {
            Some(graph) => graph.farthest_along(self.vertices, d),
            None => super::support_map::farthest_along(self.vertices, d).unwrap_or_else(Point3::origin),
        }
    }
}

/// Per vertex, the first vertex at the same position (vertices welded by position).
fn welded(vertices: &[Point3]) -> Vec<u32> {
    let key = |p: &Point3| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()];
    let mut first: HashMap<[u64; 3], u32> = HashMap::new();
    vertices.iter().enumerate().map(|(i, p)| *first.entry(key(p)).or_insert(i as u32)).collect()
}

/// Per triangle, a triangle across each of its edges, or [`NO_NEIGHBOUR`].
fn edge_neighbours(vertices: &[Point3], triangles: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let canonical = welded(vertices);
    let edge = |t: &[u32; 3], k: usize| {
        let (a, b) = (canonical[t[k] as usize], canonical[t[(k + 1) % 3] as usize]);
        (a.min(b), a.max(b))
    };
    let mut on_edge: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    for (i, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            on_edge.entry(edge(t, k)).or_default().push(i as u32);
        }
    }
    triangles
        .iter()
        .enumerate()
        .map(|(i, t)| std::array::from_fn(|k| on_edge[&edge(t, k)].iter().copied().find(|&n| n != i as u32).unwrap_or(NO_NEIGHBOUR)))
        .collect()
}

/// Components (by union-find over vertices welded at equal positions) and closedness.
fn topology(vertices: &[Point3], triangles: &[[u32; 3]]) -> (Vec<u32>, bool) {
    let canonical = welded(vertices);
    let mut parent: Vec<u32> = (0..vertices.len() as u32).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
    for t in triangles {
        let c = t.map(|i| canonical[i as usize]);
        for k in 0..3 {
            let (a, b) = (c[k], c[(k + 1) % 3]);
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra as usize] = rb;
            *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    let mut roots = HashMap::new();
    for t in triangles {
        let v = canonical[t[0] as usize];
        let root = find(&mut parent, v);
        roots.entry(root).or_insert(v);
    }
    let mut reps: Vec<u32> = roots.into_values().collect();
    reps.sort_unstable();
    let closed = edges.values().all(|&n| n == 2);
    (reps, closed)
}
