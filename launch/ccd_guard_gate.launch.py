"""Launch ccd_guard as the execution gate in front of one or more controllers.

    ros2 launch ccd_guard ccd_guard_gate.launch.py controllers:="[panda_arm_controller]" \
        urdf_file:=/path/robot.urdf srdf_file:=/path/robot.srdf

For each controller C the node serves `/ccd_guard/C/follow_joint_trajectory` and forwards
the goals it certifies collision-free to the controller's own `/C/follow_joint_trajectory`.
Point MoveIt at the gate with `config/moveit_controllers.yaml` (controller name
`ccd_guard/C`, `action_ns: follow_joint_trajectory`). With MoveIt's launch files, hand
`robot_description` and `robot_description_semantic` in `extra_parameters` instead of
the files, or let the node take the URDF from the robot_description topic.
"""
from typing import List

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    arguments = [
        DeclareLaunchArgument("controllers", default_value="[panda_arm_controller]",
                              description="the controllers to gate, as a YAML list"),
        DeclareLaunchArgument("controllers_namespace", default_value="/",
                              description="the namespace of the controllers' own actions"),
        DeclareLaunchArgument("min_clearance", default_value="0.0",
                              description="metres a forwarded motion must be proven to keep from everything"),
        DeclareLaunchArgument("params_file", default_value=PathJoinSubstitution([FindPackageShare("ccd_guard"), "config", "ccd_guard.yaml"]),
                              description="the node's parameters (ROS params file)"),
        DeclareLaunchArgument("urdf_file", default_value="", description="the robot's URDF (path or package:// URI)"),
        DeclareLaunchArgument("srdf_file", default_value="", description="MoveIt's SRDF for the robot"),
        DeclareLaunchArgument("scene_file", default_value="", description="collision objects (ccd_guard scene YAML)"),
        DeclareLaunchArgument("log_level", default_value="info", description="debug | info | warn | error"),
    ]
    node = Node(
        package="ccd_guard",
        executable="ccd_guard",
        name="ccd_guard",
        output="screen",
        parameters=[
            LaunchConfiguration("params_file"),
            {
                "urdf_file": LaunchConfiguration("urdf_file"),
                "srdf_file": LaunchConfiguration("srdf_file"),
                "scene_file": LaunchConfiguration("scene_file"),
                "gate_controllers": ParameterValue(LaunchConfiguration("controllers"), value_type=List[str]),
                "gate_controllers_namespace": LaunchConfiguration("controllers_namespace"),
                "gate_min_clearance": ParameterValue(LaunchConfiguration("min_clearance"), value_type=float),
            },
        ],
        ros_arguments=["--log-level", LaunchConfiguration("log_level")],
    )
    return LaunchDescription(arguments + [node])
