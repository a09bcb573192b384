//! Link enclosures over one time interval computed link by link, when a query first
//! needs a link: the link and its ancestors, parents first, exactly as
//! [`super::link_enclosures`] and [`super::link_jets`] compute every link. A search that
//! looks at one pair per time cell (the minimum clearance) pays for the chains of that
//! pair's links, not for the whole robot.
use super::link_motion::{child_enclosure, child_jet, joint_ranges, joint_value};
use super::{Interval, IntervalMatrix3, IntervalPose, IntervalVector3, LinkEnclosure, LinkJet};
use crate::math::Real;
use crate::motion::Segment;
use crate::robot::Robot;

/// The links to compute for `link`: it and its ancestors not yet `done`, parents first.
fn missing_chain(robot: &Robot, done: &[bool], link: usize) -> Vec<usize> {
    let mut chain = Vec::new();
    let mut x = link;
    while !done[x] {
        chain.push(x);
        match robot.placing_joints()[x] {
            Some(j) => x = robot.joints[j].parent_link,
            None => break,
        }
    }
    chain.reverse();
    chain
}

/// Every link's pose over local times `[s0, s1]` of a segment, with its pose in the
/// parent's frame, each computed when [`Self::ensure`] first asks for it. A link not
/// asked for holds the whole space, so that reading it by mistake stays sound.
pub struct EnclosuresOnDemand {
    values: Vec<Interval>,
    done: Vec<bool>,
    links: Vec<LinkEnclosure>,
}

impl EnclosuresOnDemand {
    pub fn new(robot: &Robot, segment: &Segment, s0: Real, s1: Real) -> Self {
        let (values, _) = joint_ranges(segment, s0, s1, false);
        let mut links = vec![LinkEnclosure { pose: IntervalPose::ENTIRE, local: Some(IntervalPose::ENTIRE) }; robot.links.len()];
        let mut done = vec![false; robot.links.len()];
        links[robot.root_link] = LinkEnclosure { pose: IntervalPose::identity(), local: Some(IntervalPose::identity()) };
        done[robot.root_link] = true;
        Self { values, done, links }
    }

    /// Computes `link` and its ancestors, if not yet done.
    pub fn ensure(&mut self, robot: &Robot, link: usize) {
        for l in missing_chain(robot, &self.done, link) {
            let Some(j) = robot.placing_joints()[l] else { continue };
            let joint = &robot.joints[j];
            let (value, _) = joint_value(joint, &self.values, &[]);
            self.links[l] = child_enclosure(&self.links[joint.parent_link], &joint.origin, joint.kind, &joint.axis, value, true);
            self.done[l] = true;
        }
    }

    /// Every link, those not asked for holding the whole space.
    pub fn links(&self) -> &[LinkEnclosure] {
        &self.links
    }
}

/// Every link's jet (pose and pose rate) over local times `[s0, s1]` of a segment, each
/// computed when [`Self::get`] first asks for it.
pub struct JetsOnDemand {
    values: Vec<Interval>,
    rates: Vec<Interval>,
    done: Vec<bool>,
    jets: Vec<LinkJet>,
}

impl JetsOnDemand {
    pub fn new(robot: &Robot, segment: &Segment, s0: Real, s1: Real) -> Self {
        let (values, rates) = joint_ranges(segment, s0, s1, true);
        let entire = Interval::ENTIRE;
        let unknown = LinkJet {
            enclosure: LinkEnclosure { pose: IntervalPose::ENTIRE, local: Some(IntervalPose::ENTIRE) },
            rotation_rate: IntervalMatrix3([[entire; 3]; 3]),
            translation_rate: IntervalVector3([entire; 3]),
        };
        let mut jets = vec![unknown; robot.links.len()];
        let zero = Interval::point(0.0);
        jets[robot.root_link] = LinkJet {
            enclosure: LinkEnclosure { pose: IntervalPose::identity(), local: Some(IntervalPose::identity()) },
            rotation_rate: IntervalMatrix3([[zero; 3]; 3]),
            translation_rate: IntervalVector3::zeros(),
        };
        let mut done = vec![false; robot.links.len()];
        done[robot.root_link] = true;
        Self { values, rates, done, jets }
    }

    /// The jets of link `base` and the links below it in `base`'s frame (the motion of
    /// the joints between them alone); any other link's holds the whole space.
    pub fn relative_to(robot: &Robot, segment: &Segment, s0: Real, s1: Real, base: usize) -> Self {
        let mut jets = Self::new(robot, segment, s0, s1);
        if base != robot.root_link {
            jets.jets.swap(robot.root_link, base);
            jets.done.swap(robot.root_link, base);
        }
        jets
    }

    /// Link `link`'s jet, computed (with its ancestors') when first asked for.
    pub fn get(&mut self, robot: &Robot, link: usize) -> &LinkJet {
        for l in missing_chain(robot, &self.done, link) {
            let Some(j) = robot.placing_joints()[l] else { continue };
            let joint = &robot.joints[j];
            let (value, rate) = joint_value(joint, &self.values, &self.rates);
            self.jets[l] = child_jet(&self.jets[joint.parent_link], &joint.origin, joint.kind, &joint.axis, value, rate);
            self.done[l] = true;
        }
        &self.jets[link]
    }
}
