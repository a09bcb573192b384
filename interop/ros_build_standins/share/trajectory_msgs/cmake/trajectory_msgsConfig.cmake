# Stand-in for the trajectory_msgs package: found, nothing more (see ../../../README.md).
set(trajectory_msgs_FOUND TRUE)
