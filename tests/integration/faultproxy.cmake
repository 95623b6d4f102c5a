# The TCP fault proxy (a test-support library: it resets, stalls and half-opens connections
# between a client and cachescope-sim) and its own test.
qt_add_library(cachescope-faultproxy STATIC tcpfaultproxy.h tcpfaultproxy.cpp)
target_link_libraries(cachescope-faultproxy PUBLIC Qt6::Network cachescope_options)
target_include_directories(cachescope-faultproxy PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
cachescope_add_test(NAME tst_tcpfaultproxy SOURCES tst_tcpfaultproxy.cpp LIBRARIES cachescope-faultproxy LABELS integration)
# Watches through the proxy: half-open connections, re-sent watch requests, (over HTTP/2) many
# watches on one connection.
cachescope_add_test(NAME tst_watchtransport SOURCES tst_watchtransport.cpp simthroughproxy.h LIBRARIES cachescope-simulator cachescope-core cachescope-faultproxy LABELS integration sim TIMEOUT 300)
