# The live resource table and the resource tree (issue 6): models (no widgets) and their views.
target_sources(cachescope-ui PRIVATE
    models/resourcetableroles.h
    models/resourcetablemodel.h models/resourcetablemodel.cpp
    models/labelselector.h models/labelselector.cpp
    models/resourcefilterproxymodel.h models/resourcefilterproxymodel.cpp
    models/resourcetreemodel.h models/resourcetreemodel.cpp
    widgets/resourcetabledelegate.h widgets/resourcetabledelegate.cpp
    widgets/resourcetableview.h widgets/resourcetableview.cpp
    widgets/resourcetreeview.h widgets/resourcetreeview.cpp
)
