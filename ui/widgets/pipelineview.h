#pragma once

#include "ui/models/pipelinemodel.h"

#include <QPointer>
#include <QRectF>
#include <QStringList>
#include <QWidget>

namespace Cachescope {

// PipelineView draws client-go's informer diagram live from a PipelineModel, with QPainter:
//
//     ListerWatcher → Reflector → DeltaFIFO/RealFIFO → Informer
//                                                      ↙      ↓
//                          WorkQueue ←  Handlers         Indexer
//
// Each box shows its stage's title, state and counters and is coloured by its health (a
// reflector backing off in a warning colour, a failing connection in an error colour); each
// arrow carries the rate flowing along it. Colours derive from the palette, so the diagram
// reads in light and dark themes; geometry is in logical pixels and text is measured, so it is
// crisp at any device pixel ratio. Hovering a box shows all its counters as a tooltip.
// Thread: GUI thread. Ownership: the model is not owned.
class PipelineView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PipelineView)

public:
    explicit PipelineView(QWidget *parent = nullptr);
    ~PipelineView() override;

    PipelineModel *model() const { return m_model.data(); }
    void setModel(PipelineModel *model);

    // paintedTexts() is every text drawn by the last paint, in drawing order: what the user
    // read on screen, for tests (which must not compare pixels).
    QStringList paintedTexts() const { return m_paintedTexts; }
    // stageAt() is the stage whose box is at pos (in widget coordinates), if any.
    std::optional<PipelineModel::Stage> stageAt(const QPointF &pos) const;
    // toolTipFor() is the tooltip of a stage's box.
    QString toolTipFor(PipelineModel::Stage stage) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    QRectF boxRect(PipelineModel::Stage stage) const;

    QPointer<PipelineModel> m_model; // not owned
    QStringList m_paintedTexts;
};

} // namespace Cachescope
