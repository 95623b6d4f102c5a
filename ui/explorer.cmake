# The explorer: the controller that wires the views of the main window together.
target_sources(cachescope-ui PRIVATE
    widgets/explorer.h widgets/explorer.cpp
)
