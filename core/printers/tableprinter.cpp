#include "core/printers/tableprinter.h"

#include <QTextStream>

namespace Cachescope {

namespace {
constexpr int columnPadding = 3;
}

TablePrinter::TablePrinter(QStringList headers)
{
    m_rows.append(std::move(headers));
}

void TablePrinter::addRow(QStringList cells)
{
    m_rows.append(std::move(cells));
}

void TablePrinter::print(QTextStream &out) const
{
    QList<qsizetype> widths;
    for (const QStringList &row : m_rows) {
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (widths.size() <= i) {
                widths.append(0);
            }
            widths[i] = std::max(widths[i], row[i].size());
        }
    }
    for (const QStringList &row : m_rows) {
        QString line;
        for (qsizetype i = 0; i < row.size(); ++i) {
            line += i + 1 < row.size() ? row[i].leftJustified(widths[i] + columnPadding) : row[i];
        }
        // Trailing spaces only: a leading empty cell (kubectl's CURRENT column) keeps its place.
        qsizetype end = line.size();
        while (end > 0 && line.at(end - 1).isSpace()) {
            --end;
        }
        out << QStringView(line).first(end) << '\n';
    }
}

} // namespace Cachescope
