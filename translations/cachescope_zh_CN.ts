<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>Cachescope::MainWindow</name>
        <message>
            <source>Cachescope</source>
            <translation>Cachescope</translation>
        </message>
        <message>
            <source>No cluster</source>
            <translation>未连接集群</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;Open Kubeconfig…</source>
            <translation>打开 Kubeconfig(&amp;O)…</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>帮助(&amp;H)</translation>
        </message>
        <message>
            <source>&amp;About Cachescope</source>
            <translation>关于 Cachescope(&amp;A)</translation>
        </message>
        <message>
            <source>About &amp;Qt</source>
            <translation>关于 Qt(&amp;Q)</translation>
        </message>
        <message>
            <source>Open Kubeconfig</source>
            <translation>打开 Kubeconfig</translation>
        </message>
        <message>
            <source>Kubeconfig files (config *.yaml *.yml *.conf *.kubeconfig)</source>
            <translation>Kubeconfig 文件 (config *.yaml *.yml *.conf *.kubeconfig)</translation>
        </message>
        <message>
            <source>All files (*)</source>
            <translation>所有文件 (*)</translation>
        </message>
        <message>
            <source>About Cachescope</source>
            <translation>关于 Cachescope</translation>
        </message>
        <message>
            <source>&lt;h3&gt;Cachescope %1&lt;/h3&gt;&lt;p&gt;Explore a Kubernetes cluster through its informer cache: the Reflector, DeltaFIFO, Indexer and WorkQueue of client-go, live.&lt;/p&gt;&lt;p&gt;Licensed under the Apache License, Version 2.0.&lt;/p&gt;</source>
            <translation>&lt;h3&gt;Cachescope %1&lt;/h3&gt;&lt;p&gt;通过 Informer 缓存浏览 Kubernetes 集群：实时观察 client-go 的 Reflector、DeltaFIFO、Indexer 与 WorkQueue。&lt;/p&gt;&lt;p&gt;以 Apache 许可证 2.0 版发布。&lt;/p&gt;</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ObjectView</name>
        <message>
            <source>No object selected</source>
            <translation>未选择对象</translation>
        </message>
        <message>
            <source>This object is not valid JSON: %1 at byte %2.</source>
            <translation>此对象不是有效的 JSON：%1（第 %2 字节）。</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::RecentFilesMenu</name>
        <message>
            <source>Open &amp;Recent</source>
            <translation>最近打开(&amp;R)</translation>
        </message>
        <message>
            <source>No recent files</source>
            <translation>没有最近打开的文件</translation>
        </message>
        <message>
            <source>&amp;Clear List</source>
            <translation>清空列表(&amp;C)</translation>
        </message>
    </context>
    <context>
        <name>main</name>
        <message>
            <source>Demo: a sample object</source>
            <translation>演示：示例对象</translation>
        </message>
    </context>
</TS>
