# Object detail and event stream (issue 6): object history and diff, the event stream.
target_sources(cachescope-ui PRIVATE
    models/linediff.h models/linediff.cpp
    models/objecthistory.h models/objecthistory.cpp
    models/eventstreammodel.h models/eventstreammodel.cpp
    models/eventstreamfilter.h models/eventstreamfilter.cpp
    widgets/objectdiffview.h widgets/objectdiffview.cpp
    widgets/objecthistoryview.h widgets/objecthistoryview.cpp
    widgets/eventstreamview.h widgets/eventstreamview.cpp
)
