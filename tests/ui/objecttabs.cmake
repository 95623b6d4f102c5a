# The object pane's Relations and Events tabs: the edit script their models merge with, and both
# models against the in-process simulator, row by row against what `cachescope-cli tree` and
# `events` print.
cachescope_add_test(NAME tst_rowedit SOURCES tst_rowedit.cpp LIBRARIES cachescope-models LABELS ui)
cachescope_add_test(NAME tst_relationtreemodel SOURCES tst_relationtreemodel.cpp
    LIBRARIES cachescope-models cachescope-clicommands cachescope-simulator LABELS ui integration TIMEOUT 300)
cachescope_add_test(NAME tst_objecteventsmodel SOURCES tst_objecteventsmodel.cpp
    LIBRARIES cachescope-models cachescope-clicommands cachescope-simulator LABELS ui integration TIMEOUT 300)
