// cmake --install and cpack -G DEB put every file where the FHS says, and the desktop entry and
// AppStream metainfo they install pass their validators. A missing or invalid file fails the
// test; a validator or tool that is not on the machine skips its function instead of passing it.
#include "testmain.h"
#include "testpaths.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;

namespace {

const QString appId = u"io.github.cachescope.Cachescope"_s;

// The build tree: the executables' directory is its bin/.
QString buildDir()
{
    return QDir::cleanPath(QStringLiteral(CACHESCOPE_BIN_DIR "/.."));
}

struct Run
{
    int exitCode = -1;
    QString output;
};

// A command with stdout and stderr merged; a crash or a hang counts as a failure (exit -1).
Run run(const QString &program,
        const QStringList &arguments,
        const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment(),
        const QString &workingDirectory = {})
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setProcessEnvironment(environment);
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(program, arguments);
    Run result;
    if (!process.waitForFinished(240'000) || process.exitStatus() != QProcess::NormalExit) {
        process.kill();
        process.waitForFinished();
        result.output = QString::fromUtf8(process.readAll());
        return result;
    }
    result.exitCode = process.exitCode();
    result.output = QString::fromUtf8(process.readAll());
    return result;
}

// Paths relative to the prefix's root (usr/...), as dpkg -c lists them without the leading "./".
QStringList expectedFiles()
{
    return {u"usr/bin/cachescope"_s,
            u"usr/bin/cachescope-cli"_s,
            u"usr/bin/cachescope-sim"_s,
            u"usr/share/applications/"_s + appId + u".desktop"_s,
            u"usr/share/metainfo/"_s + appId + u".metainfo.xml"_s,
            u"usr/share/icons/hicolor/scalable/apps/"_s + appId + u".svg"_s,
            u"usr/share/doc/cachescope/copyright"_s};
}

} // namespace

class TestInstall : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_destDir;
    bool m_installed = false;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_destDir.isValid());
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"DESTDIR"_s, m_destDir.path());
        const Run install = run(u"cmake"_s, {u"--install"_s, buildDir(), u"--prefix"_s, u"/usr"_s}, environment);
        QVERIFY2(install.exitCode == 0, qPrintable(install.output));
        m_installed = true;
    }

    void installedWhereFhsSays_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &path : expectedFiles())
            QTest::newRow(qPrintable(path)) << path;
    }

    void installedWhereFhsSays()
    {
        QFETCH(QString, path);
        const QFileInfo file(QDir(m_destDir.path()).filePath(path));
        QVERIFY2(file.isFile(), qPrintable(path + u" is not installed"_s));
        QVERIFY(file.size() > 0);
        if (path.startsWith(u"usr/bin/"_s))
            QVERIFY2(file.isExecutable(), qPrintable(path + u" is not executable"_s));
    }

    // Only the three binaries and the desktop integration: no test, bench or static library.
    void installsNothingElse()
    {
        QStringList installed;
        QDirIterator it(m_destDir.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            installed << QDir(m_destDir.path()).relativeFilePath(it.next());
        installed.sort();
        QStringList expected = expectedFiles();
        expected.sort();
        QCOMPARE(installed, expected);
    }

    void desktopEntryValidates()
    {
        const QString validator = QStandardPaths::findExecutable(u"desktop-file-validate"_s);
        if (validator.isEmpty())
            QSKIP("desktop-file-validate is not installed (Debian: desktop-file-utils, see scripts/setup-deps)");
        const Run result = run(validator, {m_destDir.filePath(u"usr/share/applications/"_s + appId + u".desktop"_s)});
        QVERIFY2(result.exitCode == 0, qPrintable(result.output));
        // A hint does not change the exit code, but the one about more than one main category
        // means the entry shows up twice in the menu: a clean entry makes the validator say nothing.
        QVERIFY2(result.output.trimmed().isEmpty(), qPrintable(result.output));
    }

    void metainfoValidates()
    {
        const QString validator = QStandardPaths::findExecutable(u"appstreamcli"_s);
        if (validator.isEmpty())
            QSKIP("appstreamcli is not installed (Debian: appstream, see scripts/setup-deps)");
        const Run result = run(validator, {u"validate"_s, u"--no-net"_s, m_destDir.filePath(u"usr/share/metainfo/"_s + appId + u".metainfo.xml"_s)});
        QVERIFY2(result.exitCode == 0, qPrintable(result.output));
    }

    // cpack -G DEB in a directory of its own: the package lists every installed file and its
    // Depends line, from dpkg-shlibdeps, names the Qt the binaries link.
    void debianPackage()
    {
#ifdef CACHESCOPE_TEST_SANITIZED
        QSKIP("a .deb of sanitizer-instrumented binaries is not a product; the ci preset builds it");
#endif
        // CPack's DEB generator runs file(1) to find the ELF files it hands to dpkg-shlibdeps.
        for (const QString &tool : {u"dpkg-shlibdeps"_s, u"dpkg-deb"_s, u"file"_s}) {
            if (QStandardPaths::findExecutable(tool).isEmpty())
                QSKIP(qPrintable(tool + u" is not installed (Debian: dpkg-dev and file, see scripts/setup-deps)"_s));
        }
        QTemporaryDir packageDir;
        QVERIFY(packageDir.isValid());
        const Run cpack = run(u"cpack"_s,
                              {u"-G"_s, u"DEB"_s, u"--config"_s, buildDir() + u"/CPackConfig.cmake"_s, u"-B"_s, packageDir.path()},
                              QProcessEnvironment::systemEnvironment(),
                              packageDir.path());
        QVERIFY2(cpack.exitCode == 0, qPrintable(cpack.output));
        const QStringList debs = QDir(packageDir.path()).entryList({u"*.deb"_s}, QDir::Files);
        QCOMPARE(debs.size(), 1);
        const QString deb = packageDir.filePath(debs.first());

        const Run contents = run(u"dpkg"_s, {u"-c"_s, deb});
        QVERIFY2(contents.exitCode == 0, qPrintable(contents.output));
        for (const QString &path : expectedFiles())
            QVERIFY2(contents.output.contains(u" ./"_s + path + u'\n'), qPrintable(path + u" is not in the package:\n"_s + contents.output));

        const Run info = run(u"dpkg"_s, {u"-I"_s, deb});
        QVERIFY2(info.exitCode == 0, qPrintable(info.output));
        const QRegularExpression depends(u"^ Depends: .*\\blibqt6core6\\b"_s, QRegularExpression::MultilineOption);
        QVERIFY2(depends.match(info.output).hasMatch(), qPrintable(info.output));
        QVERIFY2(info.output.contains(u" Section: devel\n"_s), qPrintable(info.output));
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestInstall)
#include "tst_install.moc"
