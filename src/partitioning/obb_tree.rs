//! Bounding-volume hierarchy of oriented boxes over the triangles of a mesh
//! (the OBB trees that Redon et al. 2004 §5.1 tests against each other).
//!
//! Built top-down: each node's box is aligned with the principal axes of its
//! triangles' corners, and the triangles are split at the mean of their centroids
//! along the box's longest axis.
use crate::bounding_volume::Obb;
use crate::math::{Matrix3, Point3, Real, Vector3};

/// A node: its box and either two children or one triangle.
#[derive(Clone, Debug)]
pub struct ObbNode {
    pub obb: Obb,
    pub content: NodeContent,
}

#[derive(Clone, Copy, Debug)]
pub enum NodeContent {
    /// Indices of the two children in [`ObbTree::nodes`].
    Children(u32, u32),
    /// Index of the triangle in the mesh.
    Triangle(u32),
}

#[derive(Clone, Debug)]
pub struct ObbTree {
    nodes: Vec<ObbNode>,
}

impl ObbTree {
    /// Builds the tree over `triangles` (corner indices into `vertices`).
    pub fn build(vertices: &[Point3], triangles: &[[u32; 3]]) -> Self {
        let mut order: Vec<u32> = (0..triangles.len() as u32).collect();
        let centroids: Vec<Point3> = triangles
            .iter()
            .map(|t| Point3::from((vertices[t[0] as usize].coords + vertices[t[1] as usize].coords + vertices[t[2] as usize].coords) / 3.0))
            .collect();
        let mut tree = ObbTree { nodes: Vec::with_capacity(2 * triangles.len().max(1)) };
        if !triangles.is_empty() {
            tree.build_node(vertices, triangles, &centroids, &mut order);
        }
        tree
    }

    pub fn nodes(&self) -> &[ObbNode] {
        &self.nodes
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Box of the whole mesh (a degenerate box at the origin for an empty mesh).
    pub fn root_obb(&self) -> Obb {
        self.nodes.first().map(|n| n.obb).unwrap_or(Obb { center: Point3::origin(), axes: Matrix3::identity(), half_extents: Vector3::zeros() })
    }

    fn build_node(&mut self, vertices: &[Point3], triangles: &[[u32; 3]], centroids: &[Point3], order: &mut [u32]) -> u32 {
        let corners = || order.iter().flat_map(|&t| triangles[t as usize].iter().map(|&v| vertices[v as usize]));
        let axes = principal_axes(corners());
        let obb = Obb::fit(axes, corners());
        let index = self.nodes.len() as u32;
        if order.len() == 1 {
            self.nodes.push(ObbNode { obb, content: NodeContent::Triangle(order[0]) });
            return index;
        }
        self.nodes.push(ObbNode { obb, content: NodeContent::Children(0, 0) });
        let split = split_triangles(&obb, centroids, order);
        let (left, right) = order.split_at_mut(split);
        let l = self.build_node(vertices, triangles, centroids, left);
        let r = self.build_node(vertices, triangles, centroids, right);
        self.nodes[index as usize].content = NodeContent::Children(l, r);
        index
    }
}

/// Eigenvectors of the covariance of the points (identity when degenerate).
fn principal_axes(points: impl Iterator<Item = Point3> + Clone) -> Matrix3 {
    let mut n = 0.0;
    let mut mean = Vector3::zeros();
    for p in points.clone() {
        mean += p.coords;
        n += 1.0;
    }
    mean /= n;
    let mut cov = Matrix3::zeros();
    for p in points {
        let d = p.coords - mean;
        cov += d * d.transpose();
    }
    let eig = cov.symmetric_eigen();
    let mut axes = eig.eigenvectors;
    // Re-orthonormalise: an OBB must have exactly orthonormal axes.
    let x = axes.column(0).normalize();
    let y = (axes.column(1) - x * x.dot(&axes.column(1))).normalize();
    let z = x.cross(&y);
    if x.iter().chain(y.iter()).chain(z.iter()).all(|v| v.is_finite()) {
        axes = Matrix3::from_columns(&[x, y, z]);
        axes
    } else {
        Matrix3::identity()
    }
}

/// Partitions `order` around the mean centroid along the box's longest axis and
/// returns the size of the first part (never 0 or all: falls back to a median split).
fn split_triangles(obb: &Obb, centroids: &[Point3], order: &mut [u32]) -> usize {
    let axis_index = obb.half_extents.imax();
    let axis = obb.axes.column(axis_index).into_owned();
    let key = |t: u32| centroids[t as usize].coords.dot(&axis);
    let mean: Real = order.iter().map(|&t| key(t)).sum::<Real>() / order.len() as Real;
    let mut split = 0;
    for i in 0..order.len() {
        if key(order[i]) < mean {
            order.swap(i, split);
            split += 1;
        }
    }
    if split == 0 || split == order.len() {
        order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
        split = order.len() / 2;
    }
    split
}
