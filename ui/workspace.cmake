# The workspace: the open kubeconfig, its connected contexts, and their list model.
target_sources(cachescope-ui PRIVATE
    workspace.h workspace.cpp
    models/contextlistmodel.h models/contextlistmodel.cpp
)
