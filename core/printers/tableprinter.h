#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QTextStream;

namespace Cachescope {

// TablePrinter writes rows in kubectl's plain table layout: upper-case headers, columns
// padded to their widest cell plus three spaces (kubectl's tabwriter padding), no trailing
// spaces. Collects rows, then print() writes them all; cost linear in the cells.
class TablePrinter
{
public:
    explicit TablePrinter(QStringList headers);
    void addRow(QStringList cells);
    void print(QTextStream &out) const;

private:
    QList<QStringList> m_rows;
};

} // namespace Cachescope
