"""Launch ccd_guard beside move_group.

    ros2 launch ccd_guard ccd_guard.launch.py urdf_file:=/path/robot.urdf srdf_file:=/path/robot.srdf

With MoveIt's launch files, pass the robot the way move_group gets it instead:
include this file and hand `robot_description` / `robot_description_semantic` in
`extra_parameters`, or let the node take the URDF from the robot_description topic.
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    arguments = [
        DeclareLaunchArgument("params_file", default_value=PathJoinSubstitution([FindPackageShare("ccd_guard"), "config", "ccd_guard.yaml"]),
                              description="the node's parameters (ROS params file)"),
        DeclareLaunchArgument("urdf_file", default_value="", description="the robot's URDF (path or package:// URI)"),
        DeclareLaunchArgument("srdf_file", default_value="", description="MoveIt's SRDF for the robot"),
        DeclareLaunchArgument("scene_file", default_value="", description="collision objects (ccd_guard scene YAML)"),
        DeclareLaunchArgument("method", default_value="certified", description="certified | pipeline | sampled"),
        DeclareLaunchArgument("namespace", default_value="", description="the node's namespace"),
        DeclareLaunchArgument("log_level", default_value="info", description="debug | info | warn | error"),
    ]
    node = Node(
        package="ccd_guard",
        executable="ccd_guard",
        name="ccd_guard",
        namespace=LaunchConfiguration("namespace"),
        output="screen",
        parameters=[
            LaunchConfiguration("params_file"),
            {
                "urdf_file": LaunchConfiguration("urdf_file"),
                "srdf_file": LaunchConfiguration("srdf_file"),
                "scene_file": LaunchConfiguration("scene_file"),
                "method": LaunchConfiguration("method"),
            },
        ],
        ros_arguments=["--log-level", LaunchConfiguration("log_level")],
    )
    return LaunchDescription(arguments + [node])
