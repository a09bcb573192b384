//! Stage 1, dynamic BVH culling (Redon et al. 2004 §4.1): axis-aligned boxes around what each
//! link element sweeps over the segment, from the interval enclosures, built bottom-up
//! into a hierarchy and tested against the scene's static hierarchy and against itself.
use crate::bounding_volume::Aabb;
use crate::collision::{Body, CollisionWorld};
use crate::enclosure::LinkEnclosure;
use crate::partitioning::AabbTree;

pub struct DynamicBvh {
    /// Indices (into `world.elements`) of the robot's and the scene's elements.
    link_elements: Vec<usize>,
    obstacle_elements: Vec<usize>,
    scene_tree: AabbTree,
    robot_tree: AabbTree,
    swept: Vec<Aabb>,
    scratch: Vec<(u32, u32)>,
}

impl DynamicBvh {
    pub fn new(world: &CollisionWorld) -> Self {
        let (mut link_elements, mut obstacle_elements) = (Vec::new(), Vec::new());
        for (i, e) in world.elements.iter().enumerate() {
            match e.body {
                Body::Link(_) => link_elements.push(i),
                Body::Obstacle(_) => obstacle_elements.push(i),
            }
        }
        let static_boxes: Vec<Aabb> = obstacle_elements.iter().map(|&i| world.elements[i].local_obb.transformed_aabb(&world.elements[i].origin)).collect();
        Self {
            link_elements,
            obstacle_elements,
            scene_tree: AabbTree::build(&static_boxes),
            robot_tree: AabbTree::default(),
            swept: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Number of checked element pairs (before culling).
    pub fn pair_count(&self, world: &CollisionWorld) -> usize {
        let n = self.link_elements.len();
        let mut count = 0;
        for &a in &self.link_elements {
            let ba = world.elements[a].body;
            count += self.obstacle_elements.iter().filter(|&&b| world.is_checked(ba, world.elements[b].body)).count();
        }
        for a in 0..n {
            for b in a + 1..n {
                let (ea, eb) = (&world.elements[self.link_elements[a]], &world.elements[self.link_elements[b]]);
                count += (ea.body != eb.body && world.is_checked(ea.body, eb.body)) as usize;
            }
        }
        count
    }

    /// Element pairs `(link element, other element)` whose swept boxes overlap over the
    /// interval the enclosures hold.
    pub fn candidates(&mut self, world: &CollisionWorld, links: &[LinkEnclosure], out: &mut Vec<(usize, usize)>) {
        out.clear();
        self.swept.clear();
        for &i in &self.link_elements {
            let e = &world.elements[i];
            let Body::Link(l) = e.body else { unreachable!() };
            self.swept.push(links[l].pose.obb_aabb(&e.body_obb));
        }
        self.robot_tree.rebuild(&self.swept);
        self.scratch.clear();
        self.robot_tree.overlaps_with(&self.scene_tree, &mut self.scratch);
        // Link-obstacle pairs the allowed collision matrix allows are not checked.
        let checked = |&(a, b): &(usize, usize)| world.is_checked(world.elements[a].body, world.elements[b].body);
        out.extend(self.scratch.iter().map(|&(a, b)| (self.link_elements[a as usize], self.obstacle_elements[b as usize])).filter(checked));
        self.scratch.clear();
        self.robot_tree.self_overlaps(&mut self.scratch);
        for &(a, b) in &self.scratch {
            let (ia, ib) = (self.link_elements[a as usize], self.link_elements[b as usize]);
            let (ba, bb) = (world.elements[ia].body, world.elements[ib].body);
            if ba != bb && world.is_checked(ba, bb) {
                out.push((ia, ib));
            }
        }
    }
}
