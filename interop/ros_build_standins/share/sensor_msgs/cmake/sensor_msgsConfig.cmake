# Stand-in for the sensor_msgs package: found, nothing more (see ../../../README.md).
set(sensor_msgs_FOUND TRUE)
