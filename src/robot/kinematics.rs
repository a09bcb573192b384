//! Forward kinematics: the world pose of every link for a joint vector.
use super::model::{JointKind, Robot};
use crate::math::{Isometry3, Real, Translation3, UnitQuaternion};

/// Values of the robot's independent joint variables ([`Robot::variables`] order).
pub type JointPositions = [Real];

impl Robot {
    /// Value of joint `j` (mimic joints follow their leader).
    pub fn joint_value(&self, j: usize, q: &JointPositions) -> Real {
        let joint = &self.joints[j];
        let Some(v) = joint.variable else { return 0.0 };
        match &joint.mimic {
            Some(m) => m.multiplier * q[v] + m.offset,
            None => q[v],
        }
    }

    /// The motion of joint `j` at value `value`, in the joint frame.
    pub fn joint_motion(&self, j: usize, value: Real) -> Isometry3 {
        let joint = &self.joints[j];
        match joint.kind {
            JointKind::Fixed => Isometry3::identity(),
            JointKind::Revolute | JointKind::Continuous => {
                Isometry3::from_parts(Translation3::identity(), UnitQuaternion::from_scaled_axis(joint.axis * value))
            }
            JointKind::Prismatic => Isometry3::from_parts(Translation3::from(joint.axis * value), UnitQuaternion::identity()),
        }
    }

    /// World pose of every link (indexed like [`Robot::links`]); the root is at the origin.
    pub fn link_poses(&self, q: &JointPositions) -> Vec<Isometry3> {
        let mut poses = vec![Isometry3::identity(); self.links.len()];
        self.link_poses_into(q, &mut poses);
        poses
    }

    /// As [`Robot::link_poses`], into a buffer of `links.len()` poses.
    pub fn link_poses_into(&self, q: &JointPositions, poses: &mut [Isometry3]) {
        poses[self.root_link] = Isometry3::identity();
        for (j, joint) in self.joints.iter().enumerate() {
            let motion = self.joint_motion(j, self.joint_value(j, q));
            poses[joint.child_link] = poses[joint.parent_link] * joint.origin * motion;
        }
    }
}
