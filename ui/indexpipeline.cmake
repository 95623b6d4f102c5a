# Index views, the pipeline view and the status bar (issue 6).
target_sources(cachescope-ui PRIVATE
    models/indexrowsmodel.h models/indexrowsmodel.cpp
    models/indexlistmodel.h models/indexlistmodel.cpp
    models/indexvaluesmodel.h models/indexvaluesmodel.cpp
    models/indexkeysmodel.h models/indexkeysmodel.cpp
    models/pipelinemodel.h models/pipelinemodel.cpp
    models/cachestatistics.h models/cachestatistics.cpp
    widgets/indexview.h widgets/indexview.cpp
    widgets/pipelineview.h widgets/pipelineview.cpp
    widgets/clusterstatusbar.h widgets/clusterstatusbar.cpp
)
