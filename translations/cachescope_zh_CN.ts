<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>Cachescope::ClusterStatusBar</name>
        <message>
            <source>Objects held by the informer caches of this window</source>
            <translation>此窗口中 Informer 缓存持有的对象</translation>
        </message>
        <message>
            <source>Estimated memory used by the caches: the objects' JSON plus bookkeeping</source>
            <translation>缓存占用内存的估计值：对象的 JSON 加上管理开销</translation>
        </message>
        <message>
            <source>Changes applied to the caches per second</source>
            <translation>每秒应用到缓存的变更数</translation>
        </message>
        <message>
            <source>disconnected</source>
            <translation>已断开</translation>
        </message>
        <message>
            <source>connecting</source>
            <translation>连接中</translation>
        </message>
        <message>
            <source>syncing</source>
            <translation>同步中</translation>
        </message>
        <message>
            <source>synced</source>
            <translation>已同步</translation>
        </message>
        <message>
            <source>retrying</source>
            <translation>重试中</translation>
        </message>
        <message>
            <source>No cluster</source>
            <translation>未连接集群</translation>
        </message>
        <message>
            <source>%1 · %2</source>
            <translation>%1 · %2</translation>
        </message>
        <message>
            <source>%1 objects cached</source>
            <translation>已缓存 %1 个对象</translation>
        </message>
        <message>
            <source>%1 in caches</source>
            <translation>缓存占用 %1</translation>
        </message>
        <message>
            <source>%1 events/s</source>
            <translation>%1 事件/秒</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失败</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::CommandBar</name>
        <message>
            <source>Find an action, a kind (po, deploy, cm), a context, a namespace or an object; :kind jumps</source>
            <translation>查找操作、资源类型（po、deploy、cm）、上下文、命名空间或对象；:类型 直接跳转</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::CommandBarModel</name>
        <message>
            <source>Kind %1</source>
            <translation>类型 %1</translation>
        </message>
        <message>
            <source>in %1</source>
            <translation>位于 %1</translation>
        </message>
        <message>
            <source>Action</source>
            <translation>操作</translation>
        </message>
        <message>
            <source>Action · %1</source>
            <translation>操作 · %1</translation>
        </message>
        <message>
            <source>Context</source>
            <translation>上下文</translation>
        </message>
        <message>
            <source>Namespace</source>
            <translation>命名空间</translation>
        </message>
        <message>
            <source>Object</source>
            <translation>对象</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ContextListModel</name>
        <message>
            <source>not connected</source>
            <translation>未连接</translation>
        </message>
        <message>
            <source>connecting…</source>
            <translation>正在连接…</translation>
        </message>
        <message>
            <source>connected</source>
            <translation>已连接</translation>
        </message>
        <message>
            <source>retrying: %1</source>
            <translation>正在重试：%1</translation>
        </message>
        <message>
            <source>%1 (shadowed)</source>
            <translation>%1（被遮蔽）</translation>
        </message>
        <message>
            <source>Context %1 in %2
Cluster: %3, user: %4</source>
            <translation>上下文 %1，来自 %2
集群：%3，用户：%4</translation>
        </message>
        <message>
            <source>Context</source>
            <translation>上下文</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Server</source>
            <translation>服务器</translation>
        </message>
        <message numerus="yes">
            <source>connected; %n informer(s) retrying</source>
            <translation>
                <numerusform>已连接；%n 个 Informer 正在重试</numerusform>
            </translation>
        </message>
        <message>
            <source>failed: %1</source>
            <translation>失败：%1</translation>
        </message>
        <message>
            <source>Not retried: connect again (context menu) once the kubeconfig or the files it names are fixed; a change to them retries by itself.</source>
            <translation>不会自动重试：修复 kubeconfig 或其引用的文件后，请（通过右键菜单）重新连接；这些文件一旦改动也会自动重试。</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ContextsView</name>
        <message>
            <source>Namespace: informers list and watch this namespace only, or all of them</source>
            <translation>命名空间：Informer 只 list 和 watch 这个命名空间，或全部命名空间</translation>
        </message>
        <message>
            <source>Cannot connect</source>
            <translation>无法连接</translation>
        </message>
        <message>
            <source>Connect</source>
            <translation>连接</translation>
        </message>
        <message>
            <source>Disconnect</source>
            <translation>断开连接</translation>
        </message>
        <message>
            <source>Connect Again</source>
            <translation>重新连接</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::Controller</name>
        <message>
            <source>Objects that lack any of the required label keys.</source>
            <translation>缺少任一必需标签键的对象。</translation>
        </message>
        <message>
            <source>comma-separated label keys every object must have</source>
            <translation>每个对象都必须具有的标签键，以逗号分隔</translation>
        </message>
        <message>
            <source>Objects whose ownerReferences point to an owner that does not exist.</source>
            <translation>ownerReferences 指向不存在的属主的对象。</translation>
        </message>
        <message>
            <source>Pods that are not ready, restart often or stay pending too long.</source>
            <translation>未就绪、频繁重启或长时间处于 Pending 状态的 Pod。</translation>
        </message>
        <message>
            <source>restarts of a container from which it is reported</source>
            <translation>容器重启达到该次数即报告</translation>
        </message>
        <message>
            <source>how long a pod may stay Pending</source>
            <translation>Pod 可处于 Pending 状态的时长</translation>
        </message>
        <message>
            <source>Works for a while and fails at random on purpose, to show backoff and retries.</source>
            <translation>模拟耗时处理并按设定随机失败，用于展示退避与重试。</translation>
        </message>
        <message>
            <source>how long each attempt works, in milliseconds</source>
            <translation>每次尝试的处理时长（毫秒）</translation>
        </message>
        <message>
            <source>probability that an attempt fails, 0 to 1</source>
            <translation>每次尝试失败的概率，0 到 1</translation>
        </message>
        <message>
            <source>seed of the failures</source>
            <translation>失败的随机种子</translation>
        </message>
        <message>
            <source>whether failures are retried (true) or dropped (false)</source>
            <translation>失败时重试（true）还是丢弃（false）</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ControllerPanel</name>
        <message>
            <source>Controller</source>
            <translation>控制器</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>Workers</source>
            <translation>工作线程</translation>
        </message>
        <message>
            <source> ms</source>
            <translation> 毫秒</translation>
        </message>
        <message>
            <source>Backoff base</source>
            <translation>退避基数</translation>
        </message>
        <message>
            <source> s</source>
            <translation> 秒</translation>
        </message>
        <message>
            <source>Backoff maximum</source>
            <translation>退避上限</translation>
        </message>
        <message>
            <source> qps</source>
            <translation> qps</translation>
        </message>
        <message>
            <source>Bucket rate</source>
            <translation>令牌桶速率</translation>
        </message>
        <message>
            <source>Bucket burst</source>
            <translation>令牌桶突发量</translation>
        </message>
        <message>
            <source>Max retries</source>
            <translation>最大重试次数</translation>
        </message>
        <message>
            <source>never</source>
            <translation>从不</translation>
        </message>
        <message>
            <source>Resync</source>
            <translation>重新同步</translation>
        </message>
        <message>
            <source>Start</source>
            <translation>启动</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Stop (drain)</source>
            <translation>停止（排空）</translation>
        </message>
        <message>
            <source>Resume</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>No controller runs. Choose one and start it on the shown resource.</source>
            <translation>没有运行中的控制器。请选择一个并在当前资源上启动。</translation>
        </message>
        <message>
            <source>Show a resource to run a controller on it.</source>
            <translation>请先显示一个资源，再在其上运行控制器。</translation>
        </message>
        <message>
            <source>starting</source>
            <translation>正在启动</translation>
        </message>
        <message>
            <source>running</source>
            <translation>运行中</translation>
        </message>
        <message>
            <source>paused: keys are queued, not processed</source>
            <translation>已暂停：键仍入队，但不处理</translation>
        </message>
        <message>
            <source>stopping: processing the keys queued before the stop</source>
            <translation>正在停止：处理停止前已入队的键</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>已停止</translation>
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;%1&lt;/b&gt; on %2, %n worker(s): %3</source>
            <translation>
                <numerusform>&lt;b&gt;%1&lt;/b&gt; 运行于 %2，%n 个工作线程：%3</numerusform>
            </translation>
        </message>
        <message>
            <source>processed %1 · succeeded %2 · retried %3 · gave up %4 · dropped %5 · queue depth %6 · findings %7</source>
            <translation>已处理 %1 · 成功 %2 · 重试 %3 · 放弃 %4 · 丢弃 %5 · 队列深度 %6 · 发现 %7</translation>
        </message>
        <message>
            <source>waiting for %1</source>
            <translation>等待%1</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::EventStreamModel</name>
        <message>
            <source>initial list</source>
            <translation>初始列表</translation>
        </message>
        <message>
            <source>phase %1</source>
            <translation>阶段 %1</translation>
        </message>
        <message>
            <source>node %1</source>
            <translation>节点 %1</translation>
        </message>
        <message>
            <source>deleted while the watch was down (final state unknown)</source>
            <translation>在 watch 中断期间被删除（最终状态未知）</translation>
        </message>
        <message>
            <source>last phase %1</source>
            <translation>最后阶段 %1</translation>
        </message>
        <message>
            <source>no change (resync)</source>
            <translation>无变化（重新同步）</translation>
        </message>
        <message>
            <source>resourceVersion only</source>
            <translation>仅 resourceVersion</translation>
        </message>
        <message>
            <source>+%1 more</source>
            <translation>另有 %1 项</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>Cluster</source>
            <translation>集群</translation>
        </message>
        <message>
            <source>Resource</source>
            <translation>资源</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Key</source>
            <translation>键</translation>
        </message>
        <message>
            <source>Resource version</source>
            <translation>资源版本</translation>
        </message>
        <message>
            <source>Summary</source>
            <translation>摘要</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::EventStreamView</name>
        <message>
            <source>Added</source>
            <translation>已添加</translation>
        </message>
        <message>
            <source>Updated</source>
            <translation>已更新</translation>
        </message>
        <message>
            <source>Deleted</source>
            <translation>已删除</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Follow</source>
            <translation>跟随最新</translation>
        </message>
        <message>
            <source>All namespaces</source>
            <translation>所有命名空间</translation>
        </message>
        <message>
            <source>Filter events</source>
            <translation>过滤事件</translation>
        </message>
        <message>
            <source>Hold new events back; they appear when the stream resumes</source>
            <translation>暂存新事件；恢复后再显示</translation>
        </message>
        <message>
            <source>Keep the newest event in view</source>
            <translation>始终显示最新事件</translation>
        </message>
        <message>
            <source>%1 events/s</source>
            <translation>%1 事件/秒</translation>
        </message>
        <message>
            <source>paused, %1 held back</source>
            <translation>已暂停，暂存 %1 条</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::Explorer</name>
        <message>
            <source>Clusters</source>
            <translation>集群</translation>
        </message>
        <message>
            <source>Resources</source>
            <translation>资源</translation>
        </message>
        <message>
            <source>Object</source>
            <translation>对象</translation>
        </message>
        <message>
            <source>Events</source>
            <translation>事件</translation>
        </message>
        <message>
            <source>Indexes</source>
            <translation>索引</translation>
        </message>
        <message>
            <source>Pipeline</source>
            <translation>流水线</translation>
        </message>
        <message>
            <source>Workqueue timeline</source>
            <translation>WorkQueue 时间线</translation>
        </message>
        <message>
            <source>Kubeconfig problems</source>
            <translation>kubeconfig 有问题</translation>
        </message>
        <message>
            <source>Some of the kubeconfig could not be read:</source>
            <translation>kubeconfig 的部分内容无法读取：</translation>
        </message>
        <message>
            <source>&amp;Controller</source>
            <translation>控制器(&amp;C)</translation>
        </message>
        <message>
            <source>Run %1 on this resource</source>
            <translation>在此资源上运行 %1</translation>
        </message>
        <message>
            <source>Cannot run the controller</source>
            <translation>无法运行控制器</translation>
        </message>
        <message>
            <source>Stop the controller (drain)</source>
            <translation>停止控制器（排空）</translation>
        </message>
        <message>
            <source>No resource is shown.</source>
            <translation>当前没有显示任何资源。</translation>
        </message>
        <message>
            <source>Controller %1 runs on %2</source>
            <translation>控制器 %1 正在 %2 上运行</translation>
        </message>
        <message>
            <source>Controller</source>
            <translation>控制器</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Resume</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>%1 of %2</source>
            <translation>%2 的 %1</translation>
        </message>
        <message>
            <source>the caches of the owners to sync (%1)</source>
            <translation>属主的缓存同步（%1）</translation>
        </message>
        <message>
            <source>No namespace %1 in this cluster any more</source>
            <translation>此集群中已没有命名空间 %1</translation>
        </message>
        <message>
            <source>This cluster does not serve %1 any more</source>
            <translation>此集群已不再提供 %1</translation>
        </message>
        <message>
            <source>&amp;Go</source>
            <translation>前往(&amp;G)</translation>
        </message>
        <message>
            <source>&amp;Back</source>
            <translation>后退(&amp;B)</translation>
        </message>
        <message>
            <source>&amp;Forward</source>
            <translation>前进(&amp;F)</translation>
        </message>
        <message>
            <source>No context %1 in this kubeconfig any more</source>
            <translation>此 kubeconfig 中已没有上下文 %1</translation>
        </message>
        <message>
            <source>Command Bar…</source>
            <translation>命令栏…</translation>
        </message>
        <message>
            <source>No namespace %1 in this cluster</source>
            <translation>此集群中没有命名空间 %1</translation>
        </message>
        <message>
            <source>&amp;Tables</source>
            <translation>表格(&amp;T)</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::FindingsTableModel</name>
        <message>
            <source>Info</source>
            <translation>信息</translation>
        </message>
        <message>
            <source>Warning</source>
            <translation>警告</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>错误</translation>
        </message>
        <message>
            <source>Severity</source>
            <translation>严重程度</translation>
        </message>
        <message>
            <source>Object</source>
            <translation>对象</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>原因</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>消息</translation>
        </message>
        <message>
            <source>Since</source>
            <translation>起始于</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::IndexKeysModel</name>
        <message>
            <source>Object</source>
            <translation>对象</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::IndexListModel</name>
        <message>
            <source>Index</source>
            <translation>索引</translation>
        </message>
        <message>
            <source>Values</source>
            <translation>值数</translation>
        </message>
        <message>
            <source>Enter a field path, such as spec.nodeName.</source>
            <translation>请输入字段路径，例如 spec.nodeName。</translation>
        </message>
        <message>
            <source>A field path has no blanks.</source>
            <translation>字段路径中不能有空白字符。</translation>
        </message>
        <message>
            <source>A field path has no empty parts: check the dots.</source>
            <translation>字段路径中不能有空的部分：请检查点号。</translation>
        </message>
        <message>
            <source>Enter a label key, such as app.</source>
            <translation>请输入标签键，例如 app。</translation>
        </message>
        <message>
            <source>The prefix of a label key must be a DNS subdomain, such as example.com.</source>
            <translation>标签键的前缀必须是 DNS 子域名，例如 example.com。</translation>
        </message>
        <message>
            <source>A label key's name has at most 63 letters, digits, '-', '_' or '.', and starts and ends with a letter or digit.</source>
            <translation>标签键的名称最多 63 个字符，只能包含字母、数字、“-”、“_”或“.”，并以字母或数字开头和结尾。</translation>
        </message>
        <message>
            <source>No informer is selected.</source>
            <translation>未选择 Informer。</translation>
        </message>
        <message>
            <source>An index named %1 exists already.</source>
            <translation>名为 %1 的索引已存在。</translation>
        </message>
        <message>
            <source>The index %1 could not be added: %2</source>
            <translation>无法添加索引 %1：%2</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::IndexValuesModel</name>
        <message>
            <source>Value</source>
            <translation>值</translation>
        </message>
        <message>
            <source>Objects</source>
            <translation>对象数</translation>
        </message>
        <message>
            <source>(empty)</source>
            <translation>(空)</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::IndexView</name>
        <message>
            <source>Add index</source>
            <translation>添加索引</translation>
        </message>
        <message>
            <source>Field path</source>
            <translation>字段路径</translation>
        </message>
        <message>
            <source>Label key</source>
            <translation>标签键</translation>
        </message>
        <message>
            <source>e.g. spec.nodeName</source>
            <translation>例如 spec.nodeName</translation>
        </message>
        <message>
            <source>e.g. app</source>
            <translation>例如 app</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::LogView</name>
        <message>
            <source>Previous</source>
            <translation>上一实例</translation>
        </message>
        <message>
            <source>Follow</source>
            <translation>跟随最新</translation>
        </message>
        <message>
            <source>Timestamps</source>
            <translation>时间戳</translation>
        </message>
        <message>
            <source>Wrap lines</source>
            <translation>自动换行</translation>
        </message>
        <message>
            <source>The container whose log is shown</source>
            <translation>显示其日志的容器</translation>
        </message>
        <message>
            <source>The log of the container's instance before its last restart</source>
            <translation>容器上次重启之前那个实例的日志</translation>
        </message>
        <message>
            <source>All</source>
            <translation>全部</translation>
        </message>
        <message>
            <source>Last 5 minutes</source>
            <translation>最近 5 分钟</translation>
        </message>
        <message>
            <source>Last 15 minutes</source>
            <translation>最近 15 分钟</translation>
        </message>
        <message>
            <source>Last hour</source>
            <translation>最近 1 小时</translation>
        </message>
        <message>
            <source>Last 6 hours</source>
            <translation>最近 6 小时</translation>
        </message>
        <message>
            <source>Last 24 hours</source>
            <translation>最近 24 小时</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>搜索</translation>
        </message>
        <message>
            <source>Next match</source>
            <translation>下一个匹配</translation>
        </message>
        <message>
            <source>Previous match</source>
            <translation>上一个匹配</translation>
        </message>
        <message>
            <source>No pod selected</source>
            <translation>未选择 Pod</translation>
        </message>
        <message>
            <source>%1 (init)</source>
            <translation>%1（init）</translation>
        </message>
        <message numerus="yes">
            <source>%n line(s)</source>
            <translation>
                <numerusform>%n 行</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 older dropped (limit %2)</source>
            <translation>已丢弃较早的 %1 行（上限 %2）</translation>
        </message>
        <message>
            <source>following</source>
            <translation>持续跟踪中</translation>
        </message>
        <message>
            <source>reconnecting…</source>
            <translation>正在重新连接…</translation>
        </message>
        <message>
            <source>end of log</source>
            <translation>日志结束</translation>
        </message>
        <message>
            <source>pod deleted</source>
            <translation>Pod 已删除</translation>
        </message>
        <message>
            <source>error: %1</source>
            <translation>错误：%1</translation>
        </message>
        <message>
            <source>Only for a single pod's log</source>
            <translation>仅适用于单个 Pod 的日志</translation>
        </message>
        <message>
            <source>The container whose log is shown, in every pod</source>
            <translation>所显示日志的容器（每个 Pod 中）</translation>
        </message>
        <message>
            <source>All containers</source>
            <translation>所有容器</translation>
        </message>
        <message>
            <source>waiting for the cluster's caches</source>
            <translation>正在等待集群的缓存</translation>
        </message>
        <message numerus="yes">
            <source>%n pod(s)</source>
            <translation>
                <numerusform>%n 个 Pod</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n stream(s)</source>
            <translation>
                <numerusform>%n 个日志流</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n pod(s) not followed (at most %1 streams)</source>
            <translation>
                <numerusform>%n 个 Pod 未跟踪（最多 %1 个日志流）</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n pod(s) not started</source>
            <translation>
                <numerusform>%n 个 Pod 尚未启动</numerusform>
            </translation>
        </message>
    </context>
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
        <message>
            <source>Open &amp;Recording…</source>
            <translation>打开录制(&amp;R)…</translation>
        </message>
        <message>
            <source>Open Recording</source>
            <translation>打开录制</translation>
        </message>
        <message>
            <source>Recordings (*.cachescope *.db *.sqlite)</source>
            <translation>录制文件 (*.cachescope *.db *.sqlite)</translation>
        </message>
        <message>
            <source>Record &amp;Session…</source>
            <translation>录制会话(&amp;S)…</translation>
        </message>
        <message>
            <source>S&amp;top Recording</source>
            <translation>停止录制(&amp;T)</translation>
        </message>
        <message>
            <source>Record Session</source>
            <translation>录制会话</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::NamespaceListModel</name>
        <message>
            <source>All namespaces</source>
            <translation>所有命名空间</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ObjectDiffView</name>
        <message>
            <source>No differences</source>
            <translation>没有差异</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ObjectEventsModel</name>
        <message>
            <source>Last seen %1, first seen %2</source>
            <translation>最近一次 %1，首次 %2</translation>
        </message>
        <message>
            <source>Last seen</source>
            <translation>最近发生</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>原因</translation>
        </message>
        <message>
            <source>Object</source>
            <translation>对象</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>消息</translation>
        </message>
        <message>
            <source>Count</source>
            <translation>数量</translation>
        </message>
        <message>
            <source>From</source>
            <translation>来源</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ObjectEventsView</name>
        <message>
            <source>Events (%1)</source>
            <translation>事件 (%1)</translation>
        </message>
        <message>
            <source>Events</source>
            <translation>事件</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ObjectHistory</name>
        <message>
            <source>Added</source>
            <translation>已添加</translation>
        </message>
        <message>
            <source>Updated</source>
            <translation>已更新</translation>
        </message>
        <message>
            <source>Deleted</source>
            <translation>已删除</translation>
        </message>
        <message>
            <source>Deleted (final state unknown)</source>
            <translation>已删除（最终状态未知）</translation>
        </message>
        <message>
            <source>Added (initial list)</source>
            <translation>已添加（初始列表）</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Resource version</source>
            <translation>资源版本</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ObjectHistoryView</name>
        <message>
            <source>Select a version to see what it changed</source>
            <translation>选择一个版本以查看其更改</translation>
        </message>
        <message>
            <source>Deleted while the watch was down; the final state is unknown</source>
            <translation>在 watch 中断期间被删除；最终状态未知</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ObjectRelationsView</name>
        <message>
            <source>Relations (%1)</source>
            <translation>关系 (%1)</translation>
        </message>
        <message>
            <source>Relations</source>
            <translation>关系</translation>
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
        <message>
            <source>YAML</source>
            <translation>YAML</translation>
        </message>
        <message>
            <source>JSON</source>
            <translation>JSON</translation>
        </message>
        <message>
            <source>Reveal Secret</source>
            <translation>显示 Secret</translation>
        </message>
        <message>
            <source>Copy Name</source>
            <translation>复制名称</translation>
        </message>
        <message>
            <source>Copy YAML</source>
            <translation>复制 YAML</translation>
        </message>
        <message>
            <source>Show the values of this Secret's data</source>
            <translation>显示此 Secret 的 data 值</translation>
        </message>
        <message>
            <source>Object</source>
            <translation>对象</translation>
        </message>
        <message>
            <source>History</source>
            <translation>历史</translation>
        </message>
        <message>
            <source>Copy JSON</source>
            <translation>复制 JSON</translation>
        </message>
        <message>
            <source>Pin</source>
            <translation>固定</translation>
        </message>
        <message>
            <source>Keep this version shown while the object changes</source>
            <translation>对象变化时仍显示此版本</translation>
        </message>
        <message>
            <source>Logs</source>
            <translation>日志</translation>
        </message>
        <message numerus="yes">
            <source>Pinned at resourceVersion %1: %n newer version(s) since.</source>
            <translation>
                <numerusform>已固定在 resourceVersion %1：此后有 %n 个更新的版本。</numerusform>
            </translation>
        </message>
        <message>
            <source>The object has been deleted.</source>
            <translation>该对象已被删除。</translation>
        </message>
        <message>
            <source>Deleted: this is its last known state (resourceVersion %1).</source>
            <translation>已删除：这是它最后已知的状态（resourceVersion %1）。</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::PipelineModel</name>
        <message>
            <source>Handlers</source>
            <translation>处理器</translation>
        </message>
        <message>
            <source>depth %1</source>
            <translation>深度 %1</translation>
        </message>
        <message>
            <source>no informer</source>
            <translation>无 Informer</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <source>listing</source>
            <translation>列举中</translation>
        </message>
        <message>
            <source>watching</source>
            <translation>监听中</translation>
        </message>
        <message>
            <source>backing off</source>
            <translation>退避中</translation>
        </message>
        <message>
            <source>synced</source>
            <translation>已同步</translation>
        </message>
        <message>
            <source>syncing</source>
            <translation>同步中</translation>
        </message>
        <message>
            <source>objects %1</source>
            <translation>对象 %1</translation>
        </message>
        <message>
            <source>handlers %1</source>
            <translation>处理器 %1</translation>
        </message>
        <message>
            <source>adds %1 · retries %2</source>
            <translation>添加 %1 · 重试 %2</translation>
        </message>
        <message>
            <source>processing %1 · waiting %2</source>
            <translation>处理中 %1 · 等待中 %2</translation>
        </message>
        <message>
            <source>lists %1 · watches %2</source>
            <translation>List %1 · Watch %2</translation>
        </message>
        <message>
            <source>streaming list</source>
            <translation>流式 List</translation>
        </message>
        <message>
            <source>resourceVersion %1</source>
            <translation>resourceVersion %1</translation>
        </message>
        <message>
            <source>listed %1, %2 remaining</source>
            <translation>已列出 %1，剩余 %2</translation>
        </message>
        <message>
            <source>listed %1</source>
            <translation>已列出 %1</translation>
        </message>
        <message>
            <source>relists %1 · reconnects %2</source>
            <translation>重新 List %1 · 重连 %2</translation>
        </message>
        <message>
            <source>events %1 · bookmarks %2</source>
            <translation>事件 %1 · 书签 %2</translation>
        </message>
        <message>
            <source>errors %1</source>
            <translation>错误 %1</translation>
        </message>
        <message>
            <source>last error: %1</source>
            <translation>最近错误：%1</translation>
        </message>
        <message>
            <source>queued %1 · popped %2</source>
            <translation>入队 %1 · 出队 %2</translation>
        </message>
        <message>
            <source>deltas processed %1</source>
            <translation>已处理 Delta %1</translation>
        </message>
        <message>
            <source>no indexes</source>
            <translation>无索引</translation>
        </message>
        <message>
            <source>indexes: %1</source>
            <translation>索引：%1</translation>
        </message>
        <message>
            <source>handler %1: backlog %2</source>
            <translation>处理器 %1：积压 %2</translation>
        </message>
        <message>
            <source>atomic replace</source>
            <translation>原子替换</translation>
        </message>
        <message>
            <source>replace per object</source>
            <translation>逐对象替换</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::PipelineView</name>
        <message>
            <source>%1/s</source>
            <translation>%1/秒</translation>
        </message>
        <message>
            <source>No controller's work queue is attached to this informer.</source>
            <translation>此 Informer 未关联控制器的 WorkQueue。</translation>
        </message>
        <message>
            <source>in: %1</source>
            <translation>输入：%1</translation>
        </message>
        <message>
            <source>No informer selected</source>
            <translation>未选择 Informer</translation>
        </message>
        <message>
            <source>no controller attached</source>
            <translation>未关联控制器</translation>
        </message>
        <message>
            <source>… %1 more</source>
            <translation>… 还有 %1 行</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::QueueMetricsPanel</name>
        <message>
            <source>Depth</source>
            <translation>深度</translation>
        </message>
        <message>
            <source>Adds/s</source>
            <translation>加入/秒</translation>
        </message>
        <message>
            <source>Queue latency p50 / p99 (10 s)</source>
            <translation>排队延迟 p50 / p99（10 秒）</translation>
        </message>
        <message>
            <source>Work duration p50 / p99 (10 s)</source>
            <translation>处理时长 p50 / p99（10 秒）</translation>
        </message>
        <message>
            <source>Retries</source>
            <translation>重试</translation>
        </message>
        <message>
            <source>Processing</source>
            <translation>处理中</translation>
        </message>
        <message>
            <source>Unfinished work</source>
            <translation>未完成工作</translation>
        </message>
        <message>
            <source>Longest running</source>
            <translation>最长运行</translation>
        </message>
        <message>
            <source>Keys added and not yet handed to a worker (workqueue_depth)</source>
            <translation>已加入但尚未交给 worker 的 key (workqueue_depth)</translation>
        </message>
        <message>
            <source>Adds per second over the last two seconds, merged adds excluded (workqueue_adds_total)</source>
            <translation>最近两秒内每秒加入数，不含合并的加入 (workqueue_adds_total)</translation>
        </message>
        <message>
            <source>Time from add to get over the last 10 seconds; the tooltip of the value has it since the start (workqueue_queue_duration_seconds)</source>
            <translation>最近 10 秒内从加入到取出的时间；数值的提示中有自启动以来的统计 (workqueue_queue_duration_seconds)</translation>
        </message>
        <message>
            <source>Time from get to done over the last 10 seconds; the tooltip of the value has it since the start (workqueue_work_duration_seconds)</source>
            <translation>最近 10 秒内从取出到完成的时间；数值的提示中有自启动以来的统计 (workqueue_work_duration_seconds)</translation>
        </message>
        <message>
            <source>Rate-limited and delayed re-adds, total and per second (workqueue_retries_total)</source>
            <translation>限速及延迟的重新加入，总数与每秒数 (workqueue_retries_total)</translation>
        </message>
        <message>
            <source>Keys a worker is processing now</source>
            <translation>正在被 worker 处理的 key</translation>
        </message>
        <message>
            <source>Sum of the time keys in processing have run so far (workqueue_unfinished_work_seconds)</source>
            <translation>处理中的 key 已运行时间之和 (workqueue_unfinished_work_seconds)</translation>
        </message>
        <message>
            <source>The longest time one key has been processing (workqueue_longest_running_processor_seconds)</source>
            <translation>单个 key 已处理的最长时间 (workqueue_longest_running_processor_seconds)</translation>
        </message>
        <message>
            <source>Since the start: %1</source>
            <translation>自启动以来：%1</translation>
        </message>
        <message>
            <source>%1 (%2/s)</source>
            <translation>%1（%2/秒）</translation>
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
        <name>Cachescope::RecordingBar</name>
        <message>
            <source>Recording</source>
            <translation>录制</translation>
        </message>
        <message>
            <source>Play or pause the recording</source>
            <translation>播放或暂停录制</translation>
        </message>
        <message>
            <source>The instant of the recording the cluster shows</source>
            <translation>集群当前显示的录制时刻</translation>
        </message>
        <message>
            <source>Speed, × the recorded pace</source>
            <translation>速度（录制节奏的倍数）</translation>
        </message>
        <message>
            <source>%1×</source>
            <translation>%1×</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Play</source>
            <translation>播放</translation>
        </message>
        <message>
            <source>Previous Change</source>
            <translation>上一次变更</translation>
        </message>
        <message>
            <source>Previous change of the selected object</source>
            <translation>所选对象的上一次变更</translation>
        </message>
        <message>
            <source>Next Change</source>
            <translation>下一次变更</translation>
        </message>
        <message>
            <source>Next change of the selected object</source>
            <translation>所选对象的下一次变更</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::RecordingController</name>
        <message>
            <source>Cannot open the recording %1: %2</source>
            <translation>无法打开录制 %1：%2</translation>
        </message>
        <message>
            <source>Cannot serve the recording %1: %2</source>
            <translation>无法提供录制 %1：%2</translation>
        </message>
        <message>
            <source>The selected object does not change after this instant.</source>
            <translation>所选对象在此时刻之后没有变更。</translation>
        </message>
        <message>
            <source>The selected object does not change before this instant.</source>
            <translation>所选对象在此时刻之前没有变更。</translation>
        </message>
        <message>
            <source>Select an object to step through its changes.</source>
            <translation>选择一个对象以逐个查看其变更。</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::RelationTreeModel</name>
        <message>
            <source>dangling owner</source>
            <translation>悬空的属主</translation>
        </message>
        <message>
            <source>owner reference (controller)</source>
            <translation>ownerReference（控制器）</translation>
        </message>
        <message>
            <source>owner reference</source>
            <translation>ownerReference</translation>
        </message>
        <message>
            <source>selector</source>
            <translation>选择算符</translation>
        </message>
        <message>
            <source>volume</source>
            <translation>卷</translation>
        </message>
        <message>
            <source>envFrom</source>
            <translation>envFrom</translation>
        </message>
        <message>
            <source>env</source>
            <translation>env</translation>
        </message>
        <message>
            <source>service account</source>
            <translation>服务账号</translation>
        </message>
        <message>
            <source>image pull secret</source>
            <translation>镜像拉取 Secret</translation>
        </message>
        <message>
            <source>node</source>
            <translation>节点</translation>
        </message>
        <message>
            <source>scale target</source>
            <translation>伸缩目标</translation>
        </message>
        <message>
            <source>ingress backend</source>
            <translation>Ingress 后端</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>%1 does not exist: the cache of its kind has synced and holds no object of that name and uid %2. Its dependents are orphans until the garbage collector deletes them.</source>
            <translation>%1 不存在：其类型的缓存已同步，但没有该名称且 uid 为 %2 的对象。在垃圾回收器删除它们之前，其从属对象都是孤儿。</translation>
        </message>
        <message>
            <source>%1 is not in the caches yet: its kind is not served, or its informer has not synced.</source>
            <translation>%1 尚未出现在缓存中：集群不提供其类型，或其 Informer 尚未同步。</translation>
        </message>
        <message>
            <source>Kind/Name</source>
            <translation>类型/名称</translation>
        </message>
        <message>
            <source>Relation</source>
            <translation>关系</translation>
        </message>
        <message>
            <source>Ready/Status</source>
            <translation>就绪/状态</translation>
        </message>
        <message>
            <source>Age</source>
            <translation>存在时长</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ResourceTableView</name>
        <message>
            <source>Filter by name or namespace (Ctrl+L)</source>
            <translation>按名称或命名空间过滤 (Ctrl+L)</translation>
        </message>
        <message>
            <source>Label selector, e.g. app=web,tier in (front,back)</source>
            <translation>标签选择器，例如 app=web,tier in (front,back)</translation>
        </message>
        <message>
            <source>Find (Ctrl+F)</source>
            <translation>查找 (Ctrl+F)</translation>
        </message>
        <message>
            <source>Label selector, at %1: %2</source>
            <translation>标签选择器，第 %1 个字符处：%2</translation>
        </message>
        <message>
            <source>%1 items so far</source>
            <translation>已接收 %1 项</translation>
        </message>
        <message>
            <source>%1 items so far of %2</source>
            <translation>已接收 %1 项，共 %2 项</translation>
        </message>
        <message numerus="yes">
            <source>retrying in %n s</source>
            <translation>
                <numerusform>%n 秒后重试</numerusform>
            </translation>
        </message>
        <message>
            <source>retrying now</source>
            <translation>正在重试</translation>
        </message>
        <message>
            <source>%1 is not up to date</source>
            <translation>%1 不是最新的</translation>
        </message>
        <message>
            <source>Cannot list %1</source>
            <translation>无法列出 %1</translation>
        </message>
        <message>
            <source>%1: %2 (%3)</source>
            <translation>%1：%2（%3）</translation>
        </message>
        <message>
            <source>Label Columns…</source>
            <translation>标签列…</translation>
        </message>
        <message>
            <source>Label Columns</source>
            <translation>标签列</translation>
        </message>
        <message>
            <source>Label keys to show as columns, comma-separated (as kubectl's -L):</source>
            <translation>要显示为列的标签键，以逗号分隔（同 kubectl 的 -L）：</translation>
        </message>
        <message>
            <source>Reset Columns</source>
            <translation>重置列</translation>
        </message>
        <message>
            <source>Retry Now</source>
            <translation>立即重试</translation>
        </message>
        <message>
            <source>End the wait and try again now</source>
            <translation>结束等待，立即重试</translation>
        </message>
        <message>
            <source>Sorting %1 rows by %2…</source>
            <translation>正在按“%2”排序 %1 行…</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::ResourceTabs</name>
        <message>
            <source>New &amp;Tab</source>
            <translation>新建标签页(&amp;T)</translation>
        </message>
        <message>
            <source>&amp;Close Tab</source>
            <translation>关闭标签页(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Move Table to New Window</source>
            <translation>将表格移到新窗口(&amp;M)</translation>
        </message>
        <message>
            <source>&amp;Next Tab</source>
            <translation>下一个标签页(&amp;N)</translation>
        </message>
        <message>
            <source>&amp;Previous Tab</source>
            <translation>上一个标签页(&amp;P)</translation>
        </message>
        <message>
            <source>%1 — %2 — Cachescope</source>
            <translation>%1 — %2 — Cachescope</translation>
        </message>
        <message>
            <source>New table</source>
            <translation>新表格</translation>
        </message>
        <message>
            <source>%1 · %2</source>
            <translation>%1 · %2</translation>
        </message>
        <message>
            <source>all</source>
            <translation>全部</translation>
        </message>
        <message>
            <source>%1 in %2 of %3</source>
            <translation>%3 中 %2 的 %1</translation>
        </message>
        <message>
            <source>all namespaces</source>
            <translation>所有命名空间</translation>
        </message>
        <message>
            <source>Duplicate Tab</source>
            <translation>复制标签页</translation>
        </message>
        <message>
            <source>Move to New Window</source>
            <translation>移到新窗口</translation>
        </message>
        <message>
            <source>Close Tab</source>
            <translation>关闭标签页</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::SessionRecorder</name>
        <message>
            <source>Already recording to %1: stop that recording first.</source>
            <translation>已在录制到 %1：请先停止该录制。</translation>
        </message>
        <message>
            <source>There is no cluster to record: connect a context first.</source>
            <translation>没有可录制的集群：请先连接一个上下文。</translation>
        </message>
        <message>
            <source>Cannot record the session: %1</source>
            <translation>无法录制会话：%1</translation>
        </message>
        <message>
            <source>Cannot connect %1 again to record it: %2</source>
            <translation>无法重新连接 %1 以录制：%2</translation>
        </message>
        <message numerus="yes">
            <source>Recording %1: %n input(s), %2</source>
            <translation>
                <numerusform>正在录制 %1：%n 条输入，%2</numerusform>
            </translation>
        </message>
        <message>
            <source>Recording %1 from the reconnect of %2 on (informers are recorded from their first list)</source>
            <translation>正在录制 %1，自 %2 重新连接起（Informer 从其首次 List 开始录制）</translation>
        </message>
        <message>
            <source>Not recording: %1</source>
            <translation>未在录制：%1</translation>
        </message>
        <message numerus="yes">
            <source>Recorded %n input(s) to %1 (%2)</source>
            <translation>
                <numerusform>已录制 %n 条输入到 %1（%2）</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Cachescope::TimelineView</name>
        <message>
            <source>Follow live</source>
            <translation>实时跟随</translation>
        </message>
        <message>
            <source>Keep the newest work in view (turns off when you drag the timeline)</source>
            <translation>保持最新的工作可见（拖动时间线时关闭）</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Freeze the picture; the queue's events are still recorded</source>
            <translation>冻结画面；队列事件仍会继续记录</translation>
        </message>
        <message>
            <source>Zoom to fit</source>
            <translation>缩放以适应</translation>
        </message>
        <message>
            <source>Show all the work still kept</source>
            <translation>显示仍保留的全部工作</translation>
        </message>
        <message>
            <source>Lanes:</source>
            <translation>泳道：</translation>
        </message>
        <message>
            <source>Per worker</source>
            <translation>按 worker</translation>
        </message>
        <message>
            <source>Per key</source>
            <translation>按 key</translation>
        </message>
        <message>
            <source>Start a Controller…</source>
            <translation>启动控制器…</translation>
        </message>
        <message>
            <source>No controller runs, so no queue is drawn. A controller on the shown resource queues its objects' keys here.</source>
            <translation>没有运行中的控制器，因此没有可绘制的队列。在当前资源上运行的控制器会把其对象的键放入这里的队列。</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::TimelineWidget</name>
        <message>
            <source>Waiting in queue</source>
            <translation>在队列中等待</translation>
        </message>
        <message>
            <source>Processing</source>
            <translation>处理中</translation>
        </message>
        <message>
            <source>Rate-limited backoff</source>
            <translation>限速退避</translation>
        </message>
        <message>
            <source>Unknown worker</source>
            <translation>未知 worker</translation>
        </message>
        <message>
            <source>Worker %1</source>
            <translation>Worker %1</translation>
        </message>
        <message>
            <source> (running)</source>
            <translation>（运行中）</translation>
        </message>
        <message>
            <source>From %1 to %2 ago, %3</source>
            <translation>从 %1 前到 %2 前，共 %3</translation>
        </message>
        <message>
            <source>Attempt %1 on worker %2</source>
            <translation>第 %1 次尝试，worker %2</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>Failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>Failed: %1</source>
            <translation>失败：%1</translation>
        </message>
        <message>
            <source>Retry %1, delay %2</source>
            <translation>第 %1 次重试，延迟 %2</translation>
        </message>
        <message>
            <source>Added after %1</source>
            <translation>延迟 %1 后加入</translation>
        </message>
        <message>
            <source>Attempt %1</source>
            <translation>第 %1 次尝试</translation>
        </message>
        <message>
            <source>now</source>
            <translation>现在</translation>
        </message>
        <message>
            <source>No work yet</source>
            <translation>尚无工作</translation>
        </message>
        <message>
            <source>No queue</source>
            <translation>没有队列</translation>
        </message>
    </context>
    <context>
        <name>Cachescope::WelcomePage</name>
        <message>
            <source>Welcome to Cachescope</source>
            <translation>欢迎使用 Cachescope</translation>
        </message>
        <message>
            <source>Open Kubeconfig…</source>
            <translation>打开 kubeconfig…</translation>
        </message>
        <message>
            <source>Explore the Demo Cluster</source>
            <translation>探索演示集群</translation>
        </message>
        <message>
            <source>No kubeconfig was found.</source>
            <translation>未找到 kubeconfig。</translation>
        </message>
        <message>
            <source>No kubeconfig was found at %1.</source>
            <translation>在 %1 未找到 kubeconfig。</translation>
        </message>
        <message>
            <source>Open a kubeconfig file to explore your cluster through its informer cache, or explore a simulated cluster with live churn that runs inside Cachescope.</source>
            <translation>打开一个 kubeconfig 文件，通过 Informer 缓存浏览你的集群；或者浏览在 Cachescope 内部运行、持续变化的模拟集群。</translation>
        </message>
    </context>
    <context>
        <name>ResourceColumns</name>
        <message>
            <source>Last Seen</source>
            <translation>最近出现</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Namespace</source>
            <translation>命名空间</translation>
        </message>
        <message>
            <source>Ready</source>
            <translation>就绪</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Restarts</source>
            <translation>重启次数</translation>
        </message>
        <message>
            <source>Node</source>
            <translation>节点</translation>
        </message>
        <message>
            <source>Up-to-date</source>
            <translation>已更新</translation>
        </message>
        <message>
            <source>Available</source>
            <translation>可用</translation>
        </message>
        <message>
            <source>Desired</source>
            <translation>期望</translation>
        </message>
        <message>
            <source>Current</source>
            <translation>当前</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Cluster-IP</source>
            <translation>Cluster-IP</translation>
        </message>
        <message>
            <source>External-IP</source>
            <translation>External-IP</translation>
        </message>
        <message>
            <source>Roles</source>
            <translation>角色</translation>
        </message>
        <message>
            <source>Version</source>
            <translation>版本</translation>
        </message>
        <message>
            <source>Data</source>
            <translation>数据</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>原因</translation>
        </message>
        <message>
            <source>Object</source>
            <translation>对象</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>消息</translation>
        </message>
        <message>
            <source>Completions</source>
            <translation>完成数</translation>
        </message>
        <message>
            <source>Duration</source>
            <translation>耗时</translation>
        </message>
        <message>
            <source>Age</source>
            <translation>存在时长</translation>
        </message>
        <message>
            <source>IP</source>
            <translation>IP</translation>
        </message>
        <message>
            <source>Node Selector</source>
            <translation>节点选择器</translation>
        </message>
        <message>
            <source>Port(s)</source>
            <translation>端口</translation>
        </message>
    </context>
    <context>
        <name>ResourceTreeModel</name>
        <message>
            <source>The core API group</source>
            <translation>核心 API 组</translation>
        </message>
        <message>
            <source>%1 (%2), %3; verbs: %4</source>
            <translation>%1（%2），%3；动词：%4</translation>
        </message>
        <message>
            <source>namespaced</source>
            <translation>命名空间级</translation>
        </message>
        <message>
            <source>cluster-scoped</source>
            <translation>集群级</translation>
        </message>
        <message>
            <source>Resource</source>
            <translation>资源</translation>
        </message>
        <message>
            <source>Count</source>
            <translation>数量</translation>
        </message>
    </context>
    <context>
        <name>main</name>
        <message>
            <source>Starting the demo cluster…</source>
            <translation>正在启动演示集群…</translation>
        </message>
    </context>
</TS>
