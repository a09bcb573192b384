"""Launch the ccd_guard node with its parameters file."""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    default_params = os.path.join(get_package_share_directory("ccd_guard"), "config", "ccd_guard.yaml")
    params = LaunchConfiguration("params_file")
    return LaunchDescription([
        DeclareLaunchArgument("params_file", default_value=default_params,
                              description="ccd_guard parameters (ROS 2 params-file format)"),
        Node(package="ccd_guard", executable="ccd_guard", name="ccd_guard",
             output="screen", parameters=[params]),
    ])
