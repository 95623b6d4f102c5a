# The workspace: the open kubeconfig, its connected contexts, their list model and pane.
target_sources(cachescope-ui PRIVATE
    workspace.h workspace.cpp
    models/contextlistmodel.h models/contextlistmodel.cpp
    models/namespacelistmodel.h models/namespacelistmodel.cpp
    widgets/contextsview.h widgets/contextsview.cpp
)
