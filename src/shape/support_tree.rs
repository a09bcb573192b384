//! The support function of a point cloud (a mesh's vertices) by branch and bound over a
//! tree of bounding balls: exact, like scanning every vertex, but a query visits only
//! the few clusters that can hold the farthest point along the direction. The minimum
//! clearance asks a mesh for its extent in some direction several times per time cell
//! (GJK's separating plane, the gap along a direction, its second-order bound); a mesh
//! builds its tree once, when first asked ([`super::TriMesh::vertex_support`]).
use super::SupportMap;
use crate::math::{Point3, Real, Vector3};

/// Points per leaf.
const LEAF: usize = 8;

#[derive(Clone, Copy, Debug)]
struct Node {
    center: Point3,
    /// Every point of the node lies within this of `center` (rounded up).
    radius: Real,
    /// The node's points, `points[start..end]`.
    start: u32,
    end: u32,
    /// Children (indices into the nodes), none for a leaf.
    children: Option<(u32, u32)>,
}

/// A point cloud arranged for support queries.
#[derive(Clone, Debug)]
pub struct SupportTree {
    points: Vec<Point3>,
    nodes: Vec<Node>,
}

impl SupportTree {
    /// The tree of `points` (repeats are dropped; at least one point).
    pub fn new(points: &[Point3]) -> Self {
        let mut keyed: Vec<([u64; 3], Point3)> = points.iter().map(|p| ([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()], *p)).collect();
        keyed.sort_unstable_by_key(|x| x.0);
        keyed.dedup_by(|x, y| x.0 == y.0);
        let mut tree = Self { points: keyed.into_iter().map(|(_, p)| p).collect(), nodes: Vec::new() };
        assert!(!tree.points.is_empty(), "a support tree needs a point");
        tree.build(0, tree.points.len());
        tree
    }

    /// Builds the node over `points[start..end]`, returns its index.
    fn build(&mut self, start: usize, end: usize) -> u32 {
        let slice = &mut self.points[start..end];
        let (mut lo, mut hi) = (slice[0], slice[0]);
        for p in slice.iter() {
            lo = lo.inf(p);
            hi = hi.sup(p);
        }
        let center = Point3::from((lo.coords + hi.coords) * 0.5);
        let radius = slice.iter().map(|p| (p - center).norm()).fold(0.0, Real::max);
        // Round up: the bound must hold over every point despite the rounding of the
        // norms and of the dot products that use it.
        let radius = radius * (1.0 + 1e-9) + 1e-12 * (1.0 + center.coords.abs().sum());
        let index = self.nodes.len() as u32;
        self.nodes.push(Node { center, radius, start: start as u32, end: end as u32, children: None });
        if end - start > LEAF {
            let extent = hi - lo;
            let axis = if extent.x >= extent.y && extent.x >= extent.z {
                0
            } else if extent.y >= extent.z {
                1
            } else {
                2
            };
            let middle = (end - start) / 2;
            slice.select_nth_unstable_by(middle, |a, b| a[axis].total_cmp(&b[axis]));
            let left = self.build(start, start + middle);
            let right = self.build(start + middle, end);
            self.nodes[index as usize].children = Some((left, right));
        }
        index
    }

    /// A point of the cloud farthest along `dir`.
    pub fn support(&self, dir: &Vector3) -> Point3 {
        let length = dir.norm();
        let bound = |n: &Node| n.center.coords.dot(dir) + n.radius * length;
        let mut best = (Real::NEG_INFINITY, self.points[0]);
        let mut stack: [u32; 64] = [0; 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let node = &self.nodes[stack[top] as usize];
            if bound(node) < best.0 {
                continue;
            }
            match node.children {
                None => {
                    for p in &self.points[node.start as usize..node.end as usize] {
                        let value = p.coords.dot(dir);
                        if value > best.0 {
                            best = (value, *p);
                        }
                    }
                }
                Some((l, r)) => {
                    // The more promising child last, so it is visited first.
                    let (first, second) = if bound(&self.nodes[l as usize]) >= bound(&self.nodes[r as usize]) { (r, l) } else { (l, r) };
                    stack[top] = first;
                    stack[top + 1] = second;
                    top += 2;
                }
            }
        }
        best.1
    }
}

impl SupportMap for SupportTree {
    fn core_support(&self, dir: &Vector3) -> Point3 {
        self.support(dir)
    }
}
