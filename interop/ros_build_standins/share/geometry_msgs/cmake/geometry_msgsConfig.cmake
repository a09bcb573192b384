# Stand-in for the geometry_msgs package: found, nothing more (see ../../../README.md).
set(geometry_msgs_FOUND TRUE)
