//! A hierarchy of axis-aligned boxes, built bottom-up: the dynamic BVH of Redon et al. 2004
//! §4.1 (rebuilt every time interval around the links' swept boxes) and the static
//! hierarchy of the scene.
use crate::bounding_volume::Aabb;

#[derive(Clone, Copy, Debug)]
struct Node {
    aabb: Aabb,
    /// Children, or `None` for a leaf.
    children: Option<(u32, u32)>,
    /// The leaf's index in the input (unused for inner nodes).
    leaf: u32,
}

#[derive(Clone, Debug, Default)]
pub struct AabbTree {
    nodes: Vec<Node>,
    root: Option<u32>,
}

impl AabbTree {
    /// Builds bottom-up: leaves sorted along the axis of largest spread of their
    /// centres, then neighbours merged pairwise, level by level, up to the root.
    pub fn build(leaves: &[Aabb]) -> Self {
        let mut tree = AabbTree { nodes: Vec::with_capacity(2 * leaves.len()), root: None };
        tree.rebuild(leaves);
        tree
    }

    /// Rebuilds in place (keeps the allocation).
    pub fn rebuild(&mut self, leaves: &[Aabb]) {
        self.nodes.clear();
        self.root = None;
        if leaves.is_empty() {
            return;
        }
        let spread = leaves.iter().fold(Aabb::empty(), |acc, b| {
            let mut acc = acc;
            acc.take_point(&b.center());
            acc
        });
        let axis = spread.extents().imax();
        let mut order: Vec<u32> = (0..leaves.len() as u32).collect();
        order.sort_by(|&a, &b| leaves[a as usize].center()[axis].total_cmp(&leaves[b as usize].center()[axis]));
        let mut level: Vec<u32> = order
            .iter()
            .map(|&i| {
                self.nodes.push(Node { aabb: leaves[i as usize], children: None, leaf: i });
                self.nodes.len() as u32 - 1
            })
            .collect();
        while level.len() > 1 {
            let mut next = Vec::with_capacity(level.len().div_ceil(2));
            for pair in level.chunks(2) {
                match *pair {
                    [a, b] => {
                        let aabb = self.nodes[a as usize].aabb.merged(&self.nodes[b as usize].aabb);
                        self.nodes.push(Node { aabb, children: Some((a, b)), leaf: 0 });
                        next.push(self.nodes.len() as u32 - 1);
                    }
                    [a] => next.push(a),
                    _ => unreachable!(),
                }
            }
            level = next;
        }
        self.root = Some(level[0]);
    }

    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// Every pair (leaf of `self`, leaf of `other`) whose boxes overlap.
    pub fn overlaps_with(&self, other: &AabbTree, out: &mut Vec<(u32, u32)>) {
        let (Some(ra), Some(rb)) = (self.root, other.root) else { return };
        let mut stack = vec![(ra, rb)];
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
            if !na.aabb.intersects(&nb.aabb) {
                continue;
            }
            match descend(na, nb, a, b) {
                Some(children) => stack.extend(children),
                None => out.push((na.leaf, nb.leaf)),
            }
        }
    }

    /// Every pair of distinct leaves (i < j) whose boxes overlap.
    pub fn self_overlaps(&self, out: &mut Vec<(u32, u32)>) {
        let Some(root) = self.root else { return };
        // Pairs of subtrees to compare; (n, n) means "within n".
        let mut stack = vec![(root, root)];
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            if a == b {
                if let Some((l, r)) = na.children {
                    stack.extend([(l, l), (r, r), (l, r)]);
                }
                continue;
            }
            if !na.aabb.intersects(&nb.aabb) {
                continue;
            }
            match descend(na, nb, a, b) {
                Some(children) => stack.extend(children),
                None => out.push((na.leaf.min(nb.leaf), na.leaf.max(nb.leaf))),
            }
        }
    }
}

/// The two node pairs to visit below an overlapping pair (splitting the larger inner
/// node), or `None` for two leaves.
fn descend(na: &Node, nb: &Node, a: u32, b: u32) -> Option<[(u32, u32); 2]> {
    match (na.children, nb.children) {
        (None, None) => None,
        (Some((l, r)), None) => Some([(l, b), (r, b)]),
        (None, Some((l, r))) => Some([(a, l), (a, r)]),
        (Some((la, ra)), Some((lb, rb))) => {
            Some(if na.aabb.extents().norm_squared() >= nb.aabb.extents().norm_squared() { [(la, b), (ra, b)] } else { [(a, lb), (a, rb)] })
        }
    }
}
