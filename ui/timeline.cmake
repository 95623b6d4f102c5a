# The workqueue timeline (issue 7): its model, painter, metrics panel and the dockable view.
target_sources(cachescope-ui PRIVATE
    models/timelinemetrics.h
    models/timelinemodel.h models/timelinemodel.cpp
    models/timelinespan.h
    widgets/queuemetricspanel.h widgets/queuemetricspanel.cpp
    widgets/timelineformat.h widgets/timelineformat.cpp
    widgets/timelineview.h widgets/timelineview.cpp
    widgets/timelinewidget.h widgets/timelinewidget.cpp
)
# The controller panel (issue 7): settings, start / pause / stop, and the findings table.
target_sources(cachescope-ui PRIVATE
    models/findingstablemodel.h models/findingstablemodel.cpp
    widgets/controllerpanel.h widgets/controllerpanel.cpp
)
