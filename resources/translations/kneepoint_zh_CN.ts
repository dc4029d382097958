<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BuiltinSimulator</name>
    <message>
        <source>preset %1, time scale %2, %3</source>
        <translation>预设 %1，时间倍率 %2，%3</translation>
    </message>
</context>
<context>
    <name>CapacityPlan</name>
    <message>
        <source>1 server</source>
        <translation>1 台服务器</translation>
    </message>
    <message>
        <source>%1 servers</source>
        <translation>%1 台服务器</translation>
    </message>
    <message>
        <source>the peak demand must be a positive number of %1, not %2</source>
        <translation>峰值需求必须是以 %1 计的正数，而不是 %2</translation>
    </message>
    <message>
        <source>the per-server capacity must be a positive number of %1, not %2</source>
        <translation>单服务器容量必须是以 %1 计的正数，而不是 %2</translation>
    </message>
    <message>
        <source>the redundancy must not be negative (%1)</source>
        <translation>冗余不能为负（%1）</translation>
    </message>
    <message>
        <source>%1 %2 at %3 %2 per server needs more than a million servers</source>
        <translation>%1 %2、每台服务器 %3 %2，需要超过一百万台服务器</translation>
    </message>
    <message>
        <source>%1 %2 ÷ %3 %2 per server = </source>
        <translation>%1 %2 ÷ 每台服务器 %3 %2 = </translation>
    </message>
    <message>
        <source>there is no per-server capacity under the SLO: %1</source>
        <translation>在 SLO 下没有单服务器容量：%1</translation>
    </message>
    <message>
        <source>the SLO capacity</source>
        <translation>SLO 容量</translation>
    </message>
    <message>
        <source>the recommended operating point</source>
        <translation>推荐工作点</translation>
    </message>
    <message>
        <source>the saturation point</source>
        <translation>饱和点</translation>
    </message>
    <message>
        <source>there is no per-server capacity: no SLO was given, and the sweep shows neither a recommended operating point nor saturation (%1)</source>
        <translation>没有单服务器容量：未给出 SLO，扫描结果既没有推荐工作点也没有饱和点（%1）</translation>
    </message>
    <message>
        <source>the steps report no output token throughput at %1, so a tok/s peak cannot be planned</source>
        <translation>各步在%1处没有输出 token 吞吐量，无法按 tok/s 峰值规划</translation>
    </message>
    <message>
        <source>%1 %2 per server%3, %4 at %5 offered</source>
        <translation>每台服务器 %1 %2%3，基于施加 %5 时的 %4</translation>
    </message>
    <message>
        <source> or more (the sweep never reached the SLO limit)</source>
        <translation> 或更多（扫描未达到 SLO 上限）</translation>
    </message>
    <message>
        <source>No capacity plan: %1.</source>
        <translation>无容量规划：%1。</translation>
    </message>
    <message>
        <source>%1 (%2 with %3)</source>
        <translation>%1（按 %3 为 %2 台）</translation>
    </message>
    <message>
        <source>A %1 %2 peak needs %3: %4.</source>
        <translation>%1 %2 的峰值需要 %3：%4。</translation>
    </message>
    <message>
        <source>A %1 %2 peak needs %3 at %4: %5.</source>
        <translation>%1 %2 的峰值需要 %3（按%4）：%5。</translation>
    </message>
    <message>
        <source>; </source>
        <comment>between the parts of the arithmetic</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>; %1 output tokens per joule</source>
        <translation>；每焦耳 %1 个输出 token</translation>
    </message>
    <message>
        <source>%1 They draw about %2 (%3 each at that load, the GPUs&apos; own figures%4).</source>
        <translation>%1 它们约消耗 %2（在该负载下每台 %3，来自 GPU 自身的数据%4）。</translation>
    </message>
</context>
<context>
    <name>Comparison</name>
    <message>
        <source>%1 not recorded</source>
        <translation>未记录 %1</translation>
    </message>
    <message>
        <source>%1 %2 not recorded</source>
        <translation>未记录 %1 %2</translation>
    </message>
    <message>
        <source>%1 %2 not recorded (recorded: %3)</source>
        <translation>未记录 %1 %2（已记录：%3）</translation>
    </message>
    <message>
        <source>the baseline is measured in %1, this run in %2</source>
        <translation>基准以 %1 计，此运行以 %2 计</translation>
    </message>
    <message>
        <source>the baseline has no %1 %2 values</source>
        <translation>基准没有 %1 %2 数值</translation>
    </message>
    <message>
        <source>the baseline&apos;s value is 0</source>
        <translation>基准的数值为 0</translation>
    </message>
    <message>
        <source>outside the baseline&apos;s range (%1)</source>
        <translation>超出基准的范围（%1）</translation>
    </message>
    <message>
        <source>not in the file</source>
        <translation>文件中没有</translation>
    </message>
    <message>
        <source>the server reported no prefix-cache figures</source>
        <translation>服务器未报告前缀缓存数据</translation>
    </message>
    <message>
        <source>no cached tokens reported</source>
        <translation>未报告缓存的 token</translation>
    </message>
</context>
<context>
    <name>Dataset</name>
    <message>
        <source>random dataset: num_prompts, input_len and output_len must be &gt;= 1</source>
        <translation>random 数据集：num_prompts、input_len 和 output_len 必须 &gt;= 1</translation>
    </message>
    <message>
        <source>random dataset: range_ratio must be in [0, 1)</source>
        <translation>random 数据集：range_ratio 必须在 [0, 1) 之内</translation>
    </message>
    <message>
        <source>needs a string &quot;prompt&quot; or a &quot;messages&quot; array</source>
        <translation>需要字符串 &quot;prompt&quot; 或数组 &quot;messages&quot;</translation>
    </message>
    <message>
        <source>empty prompt</source>
        <translation>提示词为空</translation>
    </message>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1：无法打开：%2</translation>
    </message>
    <message>
        <source>not JSON (%1 at column %2)</source>
        <translation>不是 JSON（第 %2 列：%1）</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1: read error after line %2: %3</source>
        <translation>%1：第 %2 行之后读取出错：%3</translation>
    </message>
    <message>
        <source>%1: %2 more bad lines skipped</source>
        <translation>%1：另有 %2 个无效行已跳过</translation>
    </message>
    <message>
        <source>%1: skipped %2 of %3 lines</source>
        <translation>%1：%3 行中跳过了 %2 行</translation>
    </message>
    <message>
        <source>%1: no usable prompts</source>
        <translation>%1：没有可用的提示词</translation>
    </message>
    <message>
        <source>&quot;timestamp&quot; is ISO-8601 text where earlier lines have numbers</source>
        <translation>&quot;timestamp&quot; 为 ISO-8601 文本，而前面的行是数字</translation>
    </message>
    <message>
        <source>&quot;timestamp&quot; &quot;%1&quot; is not ISO-8601 (e.g. 2024-05-01T12:00:00.250Z)</source>
        <translation>&quot;timestamp&quot; &quot;%1&quot; 不是 ISO-8601 格式（例如 2024-05-01T12:00:00.250Z）</translation>
    </message>
    <message>
        <source>&quot;timestamp&quot; is a number where earlier lines have ISO-8601 text</source>
        <translation>&quot;timestamp&quot; 为数字，而前面的行是 ISO-8601 文本</translation>
    </message>
    <message>
        <source>needs a &quot;timestamp&quot;: ISO-8601 text or seconds</source>
        <translation>需要 &quot;timestamp&quot;：ISO-8601 文本或秒数</translation>
    </message>
    <message>
        <source>%1: timestamps are not in order; requests are replayed in time order</source>
        <translation>%1：时间戳不是按顺序排列的；请求按时间顺序回放</translation>
    </message>
    <message>
        <source>shared-prefix dataset: prefix_len, num_prefixes and suffixes per prefix must be &gt;= 1</source>
        <translation>shared-prefix 数据集：prefix_len、num_prefixes 和每个前缀的后缀数必须 &gt;= 1</translation>
    </message>
    <message>
        <source>shared-prefix dataset: input_len and output_len must be &gt;= 1, range_ratio in [0, 1)</source>
        <translation>shared-prefix 数据集：input_len 和 output_len 必须 &gt;= 1，range_ratio 在 [0, 1) 之内</translation>
    </message>
    <message>
        <source>workload.prefix_len: must be &gt;= 1 for the shared-prefix dataset</source>
        <translation>workload.prefix_len：shared-prefix 数据集要求 &gt;= 1</translation>
    </message>
    <message>
        <source>workload.dataset_path: required for the %1 dataset</source>
        <translation>workload.dataset_path：%1 数据集必填</translation>
    </message>
    <message>
        <source>workload.dataset: unknown dataset &quot;%1&quot;</source>
        <translation>workload.dataset：未知数据集 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>%1: %2 prompts available for %3 requests: prompts are reused</source>
        <translation>%1：%3 个请求只有 %2 个可用提示词：提示词会被重复使用</translation>
    </message>
    <message>
        <source>%1:%2: a line longer than %3 MB; a JSONL dataset has one prompt a line</source>
        <translation>%1:%2：某行超过 %3 MB；JSONL 数据集每行一个提示词</translation>
    </message>
    <message>
        <source>messages[%1] needs a string &quot;role&quot; and a string &quot;content&quot;</source>
        <translation>messages[%1] 需要字符串 &quot;role&quot; 和字符串 &quot;content&quot;</translation>
    </message>
    <message>
        <source>messages[%1] is a system message after the start</source>
        <translation>messages[%1] 是开头之后的系统消息</translation>
    </message>
    <message>
        <source>messages[%1] and messages[%2] are two user turns in a row</source>
        <translation>messages[%1] 和 messages[%2] 是连续两个用户轮次</translation>
    </message>
    <message>
        <source>messages[%1] is an empty user turn</source>
        <translation>messages[%1] 是空的用户轮次</translation>
    </message>
    <message>
        <source>messages[%1] is an answer before any user turn</source>
        <translation>messages[%1] 是出现在任何用户轮次之前的回答</translation>
    </message>
    <message>
        <source>messages[%1] and messages[%2] are two answers in a row</source>
        <translation>messages[%1] 和 messages[%2] 是连续两个回答</translation>
    </message>
    <message>
        <source>messages[%1] has the unknown role &quot;%2&quot; (system, user or assistant)</source>
        <translation>messages[%1] 的角色 &quot;%2&quot; 未知（应为 system、user 或 assistant）</translation>
    </message>
    <message>
        <source>no user turn</source>
        <translation>没有用户轮次</translation>
    </message>
    <message>
        <source>%1: no usable conversations</source>
        <translation>%1：没有可用的对话</translation>
    </message>
    <message>
        <source>random sessions: num_prompts, input_len, output_len and turns must be &gt;= 1</source>
        <translation>随机会话：num_prompts、input_len、output_len 和 turns 必须 &gt;= 1</translation>
    </message>
    <message>
        <source>random sessions: range_ratio must be in [0, 1), system_prompt_len &gt;= 0</source>
        <translation>随机会话：range_ratio 必须在 [0, 1) 内，system_prompt_len 必须 &gt;= 0</translation>
    </message>
    <message>
        <source>random session %1</source>
        <translation>随机会话 %1</translation>
    </message>
    <message>
        <source>workload.multi_turn: the %1 dataset has no conversations; use sharegpt, jsonl or random</source>
        <translation>workload.multi_turn：%1 数据集没有对话；请使用 sharegpt、jsonl 或 random</translation>
    </message>
    <message>
        <source>%1: %2 turns in %3 conversations for %4 requests: conversations are reused</source>
        <translation>%1：%3 个对话共 %2 个轮次，需要 %4 个请求：对话将被重复使用</translation>
    </message>
    <message>
        <source>needs &quot;timestamp&quot;: a whole number of milliseconds &gt;= 0</source>
        <translation>需要 &quot;timestamp&quot;：&gt;= 0 的整数毫秒数</translation>
    </message>
    <message>
        <source>needs &quot;input_length&quot;: a whole number of tokens &gt;= 1</source>
        <translation>需要 &quot;input_length&quot;：&gt;= 1 的整数 token 数</translation>
    </message>
    <message>
        <source>needs &quot;output_length&quot;: a whole number of tokens &gt;= 1</source>
        <translation>需要 &quot;output_length&quot;：&gt;= 1 的整数 token 数</translation>
    </message>
    <message>
        <source>needs &quot;hash_ids&quot;: an array of whole numbers</source>
        <translation>需要 &quot;hash_ids&quot;：整数数组</translation>
    </message>
    <message>
        <source>hash_ids[%1] is not a whole number</source>
        <translation>hash_ids[%1] 不是整数</translation>
    </message>
    <message>
        <source>input_length %1 needs more than the %2 blocks of hash_ids (%3 tokens each)</source>
        <translation>input_length %1 超出 hash_ids 的 %2 个块（每块 %3 个 token）</translation>
    </message>
    <message>
        <source>input_length %1 fills fewer than the %2 blocks of hash_ids (%3 tokens each)</source>
        <translation>input_length %1 填不满 hash_ids 的 %2 个块（每块 %3 个 token）</translation>
    </message>
    <message>
        <source>input_length + output_length = %1 is over max_model_len %2</source>
        <translation>input_length + output_length = %1 超过 max_model_len %2</translation>
    </message>
    <message>
        <source>%1: no usable trace lines</source>
        <translation>%1：没有可用的跟踪行</translation>
    </message>
    <message>
        <source>&quot;output_tokens&quot; must be a whole number from 1 to %1</source>
        <translation>&quot;output_tokens&quot; 必须是 1 到 %1 之间的整数</translation>
    </message>
    <message>
        <source>has both &quot;prompt&quot; and &quot;messages&quot;: keep one of them</source>
        <translation>同时有 &quot;prompt&quot; 和 &quot;messages&quot;：只保留其中一个</translation>
    </message>
    <message>
        <source>%1:%2: the timestamp is %3 s after the log&apos;s earliest; a replayed log may span at most %4 s (ten days at replay_speed 1000)</source>
        <translation>%1:%2：该时间戳比日志最早的时间晚 %3 秒；回放日志的跨度最多为 %4 秒（replay_speed 为 1000 时的十天）</translation>
    </message>
</context>
<context>
    <name>FailureHint</name>
    <message>
        <source>the server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source> The request went through the proxy %1 (target.proxy is &quot;%2&quot;); set target.proxy to &quot;none&quot; to bypass it, or add %3 to no_proxy.</source>
        <translation> 请求经过了代理 %1（target.proxy 为 &quot;%2&quot;）；将 target.proxy 设为 &quot;none&quot; 可绕过代理，或把 %3 加入 no_proxy。</translation>
    </message>
    <message>
        <source>a URL</source>
        <translation>一个 URL</translation>
    </message>
    <message>
        <source>The server refused the key that was sent (an Authorization: Bearer header was sent). Check that the key is valid for this server.</source>
        <translation>服务器拒绝了发送的密钥（已发送 Authorization: Bearer 请求头）。请检查该密钥对此服务器是否有效。</translation>
    </message>
    <message>
        <source>No Authorization header was sent. Set target.api_key (${ENV_VAR}, file:PATH or a literal) or OPENAI_API_KEY.</source>
        <translation>未发送 Authorization 请求头。请设置 target.api_key（${ENV_VAR}、file:PATH 或直接填写）或 OPENAI_API_KEY。</translation>
    </message>
    <message>
        <source>Check the endpoint path (target.endpoint) and the model id (target.model).</source>
        <translation>请检查端点路径（target.endpoint）和模型 ID（target.model）。</translation>
    </message>
    <message>
        <source>Check the endpoint path and the model id; the server lists: %1.</source>
        <translation>请检查端点路径和模型 ID；服务器列出的模型：%1。</translation>
    </message>
    <message>
        <source>The server rate-limits this client: lower the rate or raise the quota.</source>
        <translation>服务器对此客户端限流：请降低请求速率或提高配额。</translation>
    </message>
    <message>
        <source>The server failed internally: see its log; at high load this is often an out-of-memory or a crashed worker.</source>
        <translation>服务器内部错误：请查看其日志；高负载下通常是内存不足（OOM）或 worker 崩溃。</translation>
    </message>
    <message>
        <source>The server answered with a redirect (HTTP %1). Requests are not redirected, so the key never goes to another address: set target.base_url to the final address.</source>
        <translation>服务器返回了重定向（HTTP %1）。请求不会跟随重定向，因此密钥不会发往其他地址：请把 target.base_url 设为最终地址。</translation>
    </message>
    <message>
        <source>Unexpected HTTP status; the message shows the start of the body.</source>
        <translation>意外的 HTTP 状态；消息中显示了响应体的开头部分。</translation>
    </message>
    <message>
        <source>Nothing listens on %1: the server is down or the port is wrong.</source>
        <translation>%1 上没有服务在监听：服务器未运行或端口错误。</translation>
    </message>
    <message>
        <source>The host name does not resolve: check target.base_url.</source>
        <translation>主机名无法解析：请检查 target.base_url。</translation>
    </message>
    <message>
        <source>The connect timeout (%1) fired: the server is overloaded or the timeout is too short for this load.</source>
        <translation>触发了连接超时（%1）：服务器过载，或超时时间对当前负载太短。</translation>
    </message>
    <message>
        <source>The first-token timeout (%1) fired: the server is overloaded or the timeout is too short for this load.</source>
        <translation>触发了首 token 超时（%1）：服务器过载，或超时时间对当前负载太短。</translation>
    </message>
    <message>
        <source>The between-chunks timeout (%1) fired: the server is overloaded or the timeout is too short for this load.</source>
        <translation>触发了数据块间隔超时（%1）：服务器过载，或超时时间对当前负载太短。</translation>
    </message>
    <message>
        <source>The total timeout (%1) fired: the server is overloaded or the timeout is too short for this load.</source>
        <translation>触发了总超时（%1）：服务器过载，或超时时间对当前负载太短。</translation>
    </message>
    <message>
        <source>HTTP 200 but the body was an error object: the message shows it.</source>
        <translation>HTTP 200，但响应体是一个错误对象：消息中显示了它。</translation>
    </message>
    <message>
        <source>The response is not an OpenAI-style stream (no &quot;choices&quot;): check the backend (target.backend) and endpoint; the message shows the first 300 bytes that came back.</source>
        <translation>响应不是 OpenAI 风格的流（没有 &quot;choices&quot;）：请检查后端（target.backend）和端点；消息中显示了返回内容的前 300 个字节。</translation>
    </message>
    <message>
        <source>A network error: the message has the details.</source>
        <translation>网络错误：详情见消息。</translation>
    </message>
    <message>
        <source>The server sent more than the client keeps for one request (%1 MiB per response, %2 MiB per event): it is flooding or not ending its lines; check the backend and endpoint.</source>
        <translation>服务器发送的数据超过客户端为单个请求保留的上限（每个响应 %1 MiB，每个事件 %2 MiB）：它在大量输出或没有结束行；请检查后端和端点。</translation>
    </message>
    <message>
        <source>Proxy variables are set (%1) and target.proxy is &quot;system&quot;: requests to %2 go through that proxy unless no_proxy (%3) matches. Set target.proxy to &quot;none&quot; to bypass it.</source>
        <translation>已设置代理环境变量（%1）且 target.proxy 为 &quot;system&quot;：发往 %2 的请求会经过该代理，除非匹配 no_proxy（%3）。将 target.proxy 设为 &quot;none&quot; 可绕过代理。</translation>
    </message>
    <message>
        <source>unset</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>Proxy variables are set (%1) but ignored (target.proxy is &quot;none&quot;); set it to &quot;system&quot; if %2 is only reachable through the proxy.</source>
        <translation>已设置代理环境变量（%1），但被忽略（target.proxy 为 &quot;none&quot;）；如果 %2 只能通过代理访问，请将其设为 &quot;system&quot;。</translation>
    </message>
    <message>
        <source>The server rate-limits this client and asks it to wait %1 s (Retry-After): lower the rate or raise the quota.</source>
        <translation>服务器对本客户端限流，并要求等待 %1 秒（Retry-After）：请降低请求速率或提高配额。</translation>
    </message>
    <message>
        <source>The server is shedding load: HTTP 503 with Retry-After %1 s asks clients to come back later instead of queueing them. This load is past what it accepts; lower it.</source>
        <translation>服务器正在卸载负载：带 Retry-After %1 秒的 HTTP 503 让客户端稍后再来，而不是排队。此负载已超出它所接受的范围，请降低负载。</translation>
    </message>
    <message>
        <source>The server is unavailable (HTTP 503): it is overloaded, still starting, or has no healthy worker; see its log.</source>
        <translation>服务器不可用（HTTP 503）：它已过载、仍在启动，或没有健康的工作进程；请查看其日志。</translation>
    </message>
    <message>
        <source>A gateway in front of the model server answered HTTP %1: the server behind it did not answer in time or at all (overloaded, restarting or down); see both logs.</source>
        <translation>模型服务器前面的网关返回 HTTP %1：其后的服务器未及时应答或完全没有应答（过载、重启或宕机）；请查看两者的日志。</translation>
    </message>
    <message>
        <source>The prompt and max_tokens together exceed the model&apos;s context (max_model_len %1, from /v1/models): lower the input and output lengths.</source>
        <translation>提示词与 max_tokens 之和超出了模型的上下文（max_model_len %1，来自 /v1/models）：请降低输入和输出长度。</translation>
    </message>
    <message>
        <source>The prompt and max_tokens together exceed the model&apos;s maximum context length (%1 tokens, as the server says): lower the input and output lengths.</source>
        <translation>提示词与 max_tokens 之和超出了模型的最大上下文长度（服务器称为 %1 个词元）：请降低输入和输出长度。</translation>
    </message>
    <message>
        <source>The prompt and max_tokens together exceed the model&apos;s maximum context length: lower the input and output lengths.</source>
        <translation>提示词与 max_tokens 之和超出了模型的最大上下文长度：请降低输入和输出长度。</translation>
    </message>
    <message>
        <source>HTTP 413 Payload Too Large: the request body (the prompt) is larger than the server, or a proxy in front of it, accepts. Use shorter prompts or raise that body limit.</source>
        <translation>HTTP 413 Payload Too Large：请求体（提示词）大于服务器或其前面的代理所接受的大小。请使用更短的提示词，或提高该请求体上限。</translation>
    </message>
    <message>
        <source>The server answered with a redirect (HTTP %1) to %2. Requests are not redirected, so the key never goes to another address: if that is the right server, set target.base_url to its address.</source>
        <translation>服务器返回了重定向（HTTP %1），指向 %2。请求不会跟随重定向，因此密钥绝不会发往其他地址：如果那是正确的服务器，请将 target.base_url 设为该地址。</translation>
    </message>
    <message>
        <source>TLS failed although certificates are not checked (target.tls_verify is false): the server may not speak TLS on this port; check the scheme (http vs https).</source>
        <translation>即使未校验证书（target.tls_verify 为 false），TLS 仍然失败：服务器在此端口上可能不使用 TLS；请检查协议（http 还是 https）。</translation>
    </message>
    <message>
        <source>TLS failed: the server&apos;s certificate was not accepted (target.tls_verify is true), or it does not speak TLS on this port. Check the scheme (http vs https); for a self-signed certificate set target.tls_verify to false.</source>
        <translation>TLS 失败：服务器的证书未被接受（target.tls_verify 为 true），或它在此端口上不使用 TLS。请检查协议（http 还是 https）；若为自签名证书，请将 target.tls_verify 设为 false。</translation>
    </message>
    <message>
        <source>The server compressed the body (Content-Encoding: %1) although the request asked for none: turn compression off for this route in the server or the proxy in front of it.</source>
        <translation>尽管请求未要求压缩，服务器仍压缩了响应体（Content-Encoding: %1）：请在服务器或其前面的代理中为此路由关闭压缩。</translation>
    </message>
    <message>
        <source>The response is not a valid OpenAI-style event stream: the message says what is wrong (invalid UTF-8 or JSON, and where) and shows the bytes; check the backend (target.backend) and endpoint.</source>
        <translation>响应不是有效的 OpenAI 风格事件流：消息指出了问题所在（无效的 UTF-8 或 JSON 及其位置）并显示了相应字节；请检查后端（target.backend）和端点。</translation>
    </message>
    <message>
        <source>The response is not a Responses API stream (no &quot;output&quot; text): check the backend (target.backend) and endpoint; the message shows the first 300 bytes that came back.</source>
        <translation>响应不是 Responses API 流（没有 &quot;output&quot; 文本）：请检查后端（target.backend）和端点；消息中显示了返回内容的前 300 个字节。</translation>
    </message>
    <message>
        <source>The response is not a Messages API stream (no &quot;content&quot; text): check the backend (target.backend) and endpoint; the message shows the first 300 bytes that came back.</source>
        <translation>响应不是 Messages API 流（没有 &quot;content&quot; 文本）：请检查后端（target.backend）和端点；消息中显示了返回内容的前 300 个字节。</translation>
    </message>
    <message>
        <source>The response is not an embeddings reply (no &quot;data&quot;): check the backend (target.backend) and endpoint; the message shows the first 300 bytes that came back.</source>
        <translation>响应不是 embeddings 回复（没有 &quot;data&quot;）：请检查后端（target.backend）和端点；消息中显示了返回内容的前 300 个字节。</translation>
    </message>
    <message>
        <source>The server closed the stream before %1: it may have crashed or restarted.</source>
        <translation>服务器在 %1 之前关闭了流：它可能已崩溃或重启。</translation>
    </message>
</context>
<context>
    <name>Images</name>
    <message>
        <source>workload.image_size: must be WIDTHxHEIGHT in pixels, got &quot;%1&quot;</source>
        <translation>workload.image_size：必须是以像素为单位的 宽x高，实际为“%1”</translation>
    </message>
    <message>
        <source>image folder %1: no such folder</source>
        <translation>图像文件夹 %1：文件夹不存在</translation>
    </message>
    <message>
        <source>image %1: %2 bytes, over the limit of %3 bytes per image</source>
        <translation>图像 %1：%2 字节，超过每张图像 %3 字节的上限</translation>
    </message>
    <message>
        <source>image folder %1: over the limit of %2 bytes of images</source>
        <translation>图像文件夹 %1：图像总量超过 %2 字节的上限</translation>
    </message>
    <message>
        <source>image %1: %2</source>
        <translation>图像 %1：%2</translation>
    </message>
    <message>
        <source>image %1: not a PNG, JPEG, WebP or GIF image (by its first bytes)</source>
        <translation>图像 %1：不是 PNG、JPEG、WebP 或 GIF 图像（按其开头字节判断）</translation>
    </message>
    <message>
        <source>image folder %1 holds no images</source>
        <translation>图像文件夹 %1 中没有图像</translation>
    </message>
</context>
<context>
    <name>KneeAnalysis</name>
    <message>
        <source>.</source>
        <comment>end of a sentence</comment>
        <translation>。</translation>
    </message>
    <message>
        <source>the error rate</source>
        <translation>错误率</translation>
    </message>
    <message>
        <source>all at once</source>
        <translation>一次性全部发送</translation>
    </message>
    <message>
        <source>step %1 (%2)</source>
        <translation>第 %1 步（%2）</translation>
    </message>
    <message>
        <source>add more users</source>
        <translation>请增加并发用户数</translation>
    </message>
    <message>
        <source>add higher rates</source>
        <translation>请增加更高的请求速率</translation>
    </message>
    <message>
        <source>it ran at a request rate, while the sweep varies users</source>
        <translation>该步按请求速率运行，而本次扫描改变的是并发用户数</translation>
    </message>
    <message>
        <source>it ran with a number of users, while the sweep varies the rate</source>
        <translation>该步按并发用户数运行，而本次扫描改变的是请求速率</translation>
    </message>
    <message>
        <source>other load mode</source>
        <translation>负载模式不同</translation>
    </message>
    <message>
        <source>it sent every request at once, so it has no offered rate to place on the load axis</source>
        <translation>该步一次性发出全部请求，没有可放在负载轴上的目标请求速率</translation>
    </message>
    <message>
        <source>it has no offered load</source>
        <translation>该步没有施加负载</translation>
    </message>
    <message>
        <source>no load</source>
        <translation>无负载</translation>
    </message>
    <message>
        <source>it was stopped before every request ended (partial)</source>
        <translation>该步在所有请求结束前被停止（不完整）</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>it was client-bound: the client could not keep to the schedule, so it measured the client rather than the server</source>
        <translation>该步受客户端限制：客户端无法按计划发送请求，测到的是客户端而不是服务器</translation>
    </message>
    <message>
        <source>client-bound</source>
        <translation>受客户端限制</translation>
    </message>
    <message>
        <source>only %1 of its %2 requests ended</source>
        <translation>%2 个请求中只有 %1 个结束</translation>
    </message>
    <message>
        <source>%1 of %2 requests ended</source>
        <translation>%2 个请求中 %1 个结束</translation>
    </message>
    <message>
        <source>no request ended</source>
        <translation>没有请求结束</translation>
    </message>
    <message>
        <source>no requests</source>
        <translation>无请求</translation>
    </message>
    <message>
        <source>%1 of its requests failed, more than the %2 a reliable step may lose</source>
        <translation>%1 的请求失败，超过可靠步骤允许的 %2</translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation>错误 %1</translation>
    </message>
    <message>
        <source>it does not report %1</source>
        <translation>该步没有 %1 数据</translation>
    </message>
    <message>
        <source>%1: no %2</source>
        <translation>%1：无 %2</translation>
    </message>
    <message>
        <source>%1 does not report %2, so it is left out of the latency knee.</source>
        <translation>%1没有 %2 数据，因此未计入延迟拐点。</translation>
    </message>
    <message>
        <source>%1 sent every request at once: its %2 is the server&apos;s throughput ceiling, not a point on the load axis.</source>
        <translation>%1一次性发出全部请求：其 %2 是服务器的吞吐量上限，而不是负载轴上的一个点。</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 is left out of the knee: %2; it still counts for throughput and the SLO.</source>
        <translation>%1未计入拐点：%2；但仍计入吞吐量和 SLO。</translation>
    </message>
    <message>
        <source>%1 is left out of the analysis: %2.</source>
        <translation>%1未计入分析：%2。</translation>
    </message>
    <message>
        <source>The steps do not report %1, so there is no latency knee.</source>
        <translation>各步没有 %1 数据，因此没有延迟拐点。</translation>
    </message>
    <message>
        <source>throughput %1 to %2</source>
        <translation>吞吐量 %1 至 %2</translation>
    </message>
    <message>
        <source>, %1 %2 to %3</source>
        <translation>，%1 %2 至 %3</translation>
    </message>
    <message>
        <source>Steps %1 and %2 ran at %3; the analysis uses their mean. Their spread: %4.</source>
        <translation>第 %1 和 %2 步都在 %3 下运行，分析取其平均值。波动范围：%4。</translation>
    </message>
    <message>
        <source> Left out: %1.</source>
        <translation> 未计入：%1。</translation>
    </message>
    <message>
        <source>Saturation is unknown: no step with a usable load yet.%1</source>
        <translation>饱和点未知：尚无负载可用的步骤。%1</translation>
    </message>
    <message>
        <source>The sweep never saturated: throughput followed the offered rate up to %1 (%2 achieved); %3.</source>
        <translation>扫描未达到饱和：直到 %1（实际 %2）吞吐量都跟随目标请求速率；%3。</translation>
    </message>
    <message>
        <source>more users add at most %1 throughput (%2 here, at most %3 up to %4)</source>
        <translation>再增加并发用户最多只增加 %1 吞吐量（此处 %2，直到 %4 最多 %3）</translation>
    </message>
    <message>
        <source>more users add no throughput (%1 here, at most %2 up to %3)</source>
        <translation>再增加并发用户不再增加吞吐量（此处 %1，直到 %3 最多 %2）</translation>
    </message>
    <message>
        <source>Saturation at %1: %2.</source>
        <translation>在 %1 处饱和：%2。</translation>
    </message>
    <message>
        <source>The sweep never saturated: throughput still grows with the users up to %1 (%2); %3.</source>
        <translation>扫描未达到饱和：直到 %1（%2）吞吐量仍随并发用户数增长；%3。</translation>
    </message>
    <message>
        <source> of the %1 a step this long reads without saturation, its last requests&apos; drain included</source>
        <translation>，即这么长的一步在不饱和时应得的 %1，已计入最后一批请求的收尾时间</translation>
    </message>
    <message>
        <source> The sweep never saturated; %1.</source>
        <translation> 扫描未达到饱和；%1。</translation>
    </message>
    <message>
        <source>No knee: the steps do not report %1.</source>
        <translation>无拐点：各步没有 %1 数据。</translation>
    </message>
    <message>
        <source>No knee yet: finding one needs at least %1 reliable steps that report %2, and the sweep has %3.%4</source>
        <translation>暂无拐点：至少需要 %1 个有 %2 数据的可靠步骤，当前扫描只有 %3 个。%4</translation>
    </message>
    <message>
        <source>and %1 (%2) at %3</source>
        <translation>在 %3 时为 %1（%2）</translation>
    </message>
    <message>
        <source>%1 at %2, and %3 (%4) at %5</source>
        <translation>在 %2 时为 %1，在 %5 时为 %3（%4）</translation>
    </message>
    <message>
        <source>The knee is at %1 (%2 achieved): %3 is %4 there, %5.%6</source>
        <translation>拐点在 %1（实际 %2）：此处 %3 为 %4，%5。%6</translation>
    </message>
    <message>
        <source>the number of users</source>
        <translation>并发用户数</translation>
    </message>
    <message>
        <source>the offered rate</source>
        <translation>目标请求速率</translation>
    </message>
    <message>
        <source>No throughput knee yet: finding one needs at least %1 reliable steps, and the sweep has %2.%3</source>
        <translation>暂无吞吐量拐点：至少需要 %1 个可靠步骤，当前扫描只有 %2 个。%3</translation>
    </message>
    <message>
        <source>beyond it, throughput no longer grows</source>
        <translation>超过此点后吞吐量不再增长</translation>
    </message>
    <message>
        <source>beyond it, throughput grows %1 slower than below it</source>
        <translation>超过此点后吞吐量增长比之前慢 %1</translation>
    </message>
    <message>
        <source>Throughput bends at %1 (%2 achieved): %3.%4</source>
        <translation>吞吐量在 %1（实际 %2）处弯折：%3。%4</translation>
    </message>
    <message>
        <source>Throughput collapses from %1: it peaked at %2 at %3 and falls to %4 (%5 below the peak)</source>
        <translation>吞吐量从 %1 起崩溃：在 %3 时达到峰值 %2，之后降到 %4（比峰值低 %5）</translation>
    </message>
    <message>
        <source>, and to %1 at %2</source>
        <translation>，在 %2 时降到 %1</translation>
    </message>
    <message>
        <source>No collapse: throughput did not fall as the load rose; its peak, %1, is at the highest load, %2.</source>
        <translation>无吞吐崩溃：负载上升时吞吐量没有下降；其峰值 %1 出现在最高负载 %2。</translation>
    </message>
    <message>
        <source>No collapse: throughput rose with the load up to %1.</source>
        <translation>无吞吐崩溃：直到 %1 吞吐量都随负载上升。</translation>
    </message>
    <message>
        <source>No collapse: throughput held within %1 of its %2 peak from %3 to %4.</source>
        <translation>无吞吐崩溃：从 %3 到 %4，吞吐量保持在峰值 %2 的 %1 以内。</translation>
    </message>
    <message>
        <source>the error rate ≤ %1</source>
        <translation>错误率 ≤ %1</translation>
    </message>
    <message>
        <source>No SLO capacity: no SLO was given (the profile&apos;s slo, or --slo ttft:p99:500).</source>
        <translation>无 SLO 容量：未给出 SLO（在配置的 slo 中设置，或用 --slo ttft:p99:500）。</translation>
    </message>
    <message>
        <source>does not report %1</source>
        <translation>没有 %1 数据</translation>
    </message>
    <message>
        <source>%1 does not report %2, so the SLO was not checked there.</source>
        <translation>%1没有 %2 数据，因此未在此检查 SLO。</translation>
    </message>
    <message>
        <source>No SLO capacity yet: no usable step.%1</source>
        <translation>暂无 SLO 容量：没有可用的步骤。%1</translation>
    </message>
    <message>
        <source>No SLO capacity: the steps do not report %1, which the SLO needs.</source>
        <translation>无 SLO 容量：各步没有 SLO 所需的 %1 数据。</translation>
    </message>
    <message>
        <source>No SLO capacity: even the lowest load, %1, misses the SLO (%2); test lower loads.</source>
        <translation>无 SLO 容量：即使最低负载 %1 也不满足 SLO（%2）；请测试更低的负载。</translation>
    </message>
    <message>
        <source>Every step met the SLO (%1) up to %2 (%3 achieved), so the SLO capacity is at least that; %4 to find it.</source>
        <translation>直到 %2（实际 %3）每一步都满足 SLO（%1），因此 SLO 容量至少为此值；%4以找到它。</translation>
    </message>
    <message>
        <source>%1 met the SLO again after %2 missed it; the SLO capacity stops at the first miss.</source>
        <translation>%2 未满足 SLO 之后，%1又满足了 SLO；SLO 容量以第一次未满足为准。</translation>
    </message>
    <message>
        <source>SLO capacity is %1 (%2 achieved): %3 reaches its limit of %4 there, interpolated between %5 (%6) and %7 (%8).</source>
        <translation>SLO 容量为 %1（实际 %2）：%3 在此达到上限 %4，由 %5（%6）与 %7（%8）之间插值得出。</translation>
    </message>
    <message>
        <source> At %1, %2 also %3 its limit.</source>
        <translation> 在 %1 时，%2 也%3上限。</translation>
    </message>
    <message>
        <source>miss</source>
        <translation>超出</translation>
    </message>
    <message>
        <source>misses</source>
        <translation>超出</translation>
    </message>
    <message>
        <source> The sweep never saturated, so the real peak is higher and this point is conservative.</source>
        <translation> 扫描未达到饱和，实际峰值更高，此工作点偏保守。</translation>
    </message>
    <message>
        <source>No recommended operating point: even the lowest load, %1, uses %2 of the %3 peak throughput, more than %4; test lower loads.</source>
        <translation>无推荐工作点：即使最低负载 %1 也用到峰值吞吐量 %3 的 %2，超过 %4；请测试更低的负载。</translation>
    </message>
    <message>
        <source>Recommended operating point: %1 (%2 achieved), where throughput reaches %3 of its %4 peak; no SLO was given, so latency does not limit it.%5</source>
        <translation>推荐工作点：%1（实际 %2），此处吞吐量达到峰值 %4 的 %3；未给出 SLO，因此不受延迟限制。%5</translation>
    </message>
    <message>
        <source>No recommended operating point: no tested load met the SLO.</source>
        <translation>无推荐工作点：测试过的负载都不满足 SLO。</translation>
    </message>
    <message>
        <source>Recommended operating point: %1 (%2 achieved), the SLO capacity; it uses %3 of the %4 peak throughput, within the %5 limit.%6</source>
        <translation>推荐工作点：%1（实际 %2），即 SLO 容量；它用到峰值吞吐量 %4 的 %3，在 %5 的上限以内。%6</translation>
    </message>
    <message>
        <source>Recommended operating point: %1 (%2 achieved), where throughput reaches %3 of its %4 peak; the SLO would allow %5%6, but beyond this point less than %7 headroom remains.%8</source>
        <translation>推荐工作点：%1（实际 %2），此处吞吐量达到峰值 %4 的 %3；SLO 允许%5 %6，但超过此点余量不足 %7。%8</translation>
    </message>
    <message>
        <source>at least </source>
        <translation>至少</translation>
    </message>
    <message>
        <source>at %1</source>
        <translation>在 %1 处</translation>
    </message>
    <message>
        <source>up to %1</source>
        <translation>直到 %1</translation>
    </message>
    <message>
        <source>Linear %1: throughput follows the offered rate (within %2%)</source>
        <translation>线性区（%1）：吞吐量跟随目标请求速率（误差 %2% 以内）</translation>
    </message>
    <message>
        <source>Linear %1: throughput is %2</source>
        <translation>线性区（%1）：吞吐量为 %2</translation>
    </message>
    <message>
        <source>Linear %1: throughput grows with the users, from %2 at %3 to %4 at %5</source>
        <translation>线性区（%1）：吞吐量随并发用户数增长，从 %3 时的 %2 到 %5 时的 %4</translation>
    </message>
    <message>
        <source>The curve bends at %1: %2 is %3 there.</source>
        <translation>曲线在 %1 处弯折：此处 %2 为 %3。</translation>
    </message>
    <message>
        <source>The curve bends at %1.</source>
        <translation>曲线在 %1 处弯折。</translation>
    </message>
    <message>
        <source>throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>RPS</source>
        <translation>RPS</translation>
    </message>
    <message>
        <source>From %1 %2 still grows with %3</source>
        <translation>从 %1 起，%2 仍随%3增长</translation>
    </message>
    <message>
        <source>From %1 %2 grows %3 slower than %4</source>
        <translation>从 %1 起，%2 的增长比%4慢 %3</translation>
    </message>
    <message>
        <source> and %1 rises %2 (%3 at %4 to %5 at %6)</source>
        <translation>，%1 上升 %2（从 %4 时的 %3 到 %6 时的 %5）</translation>
    </message>
    <message>
        <source>From %1 the server is overloaded: it completes %2 of the %1 offered (%3)</source>
        <translation>从 %1 起服务器过载：施加 %1，只完成 %2（%3）</translation>
    </message>
    <message>
        <source>From %1 the server is saturated: more users add little or no throughput (%2 at %1, %3 at %4)</source>
        <translation>从 %1 起服务器饱和：再增加并发用户几乎不增加吞吐量（%1 时 %2，%4 时 %3）</translation>
    </message>
    <message>
        <source>, and %1 reaches %2 at %3</source>
        <translation>，%1 在 %3 时达到 %2</translation>
    </message>
    <message>
        <source>; from %1 throughput falls, to %2 below its %3 peak</source>
        <translation>；从 %1 起吞吐量下降，比峰值 %3 低 %2</translation>
    </message>
    <message>
        <source>no request completed</source>
        <translation>没有请求完成</translation>
    </message>
    <message>
        <source>1 user</source>
        <translation>1 并发</translation>
    </message>
    <message>
        <source>%1 users</source>
        <translation>%1 并发</translation>
    </message>
    <message>
        <source>No capacity plan: %1.</source>
        <translation>无容量规划：%1。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a step left out: its name, then why in brief</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>; </source>
        <comment>between the steps left out</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>No recommended operating point: no step completed a request, so there is no throughput to size it by.</source>
        <translation>没有推荐工作点：没有任何一步完成请求，因此没有可据以确定规模的吞吐量。</translation>
    </message>
    <message>
        <source>its file gives no request throughput, nor the completed requests and duration it follows from</source>
        <translation>其文件既未给出请求吞吐量，也未给出可据以推算的完成请求数和时长</translation>
    </message>
    <message>
        <source>no throughput</source>
        <translation>无吞吐量</translation>
    </message>
    <message>
        <source>No step reports %1; the latency curve is %2, the highest percentile they report.</source>
        <translation>没有任何一步报告 %1；延迟曲线改用它们报告的最高百分位 %2。</translation>
    </message>
    <message>
        <source>%1 of requests came back shorter than max_tokens, so output throughput is lower than the requested lengths suggest.</source>
        <translation>%1 的请求返回的长度短于 max_tokens，因此输出吞吐量低于按请求长度估计的值。</translation>
    </message>
    <message>
        <source>%1 of requests came back shorter than max_tokens though ignore_eos was set: the server ignored it.</source>
        <translation>%1 的请求返回的长度短于 max_tokens，尽管设置了 ignore_eos：服务器忽略了它。</translation>
    </message>
    <message>
        <source>%1 of requests came back shorter than max_tokens: the model stopped early, so output throughput is lower than the requested lengths suggest.</source>
        <translation>%1 的请求返回的长度短于 max_tokens：模型提前停止，因此输出吞吐量低于按请求长度估计的值。</translation>
    </message>
    <message>
        <source>No step measured %1 (whole answers, not streamed, or embeddings); the latency curve is %2.</source>
        <translation>没有任何一步测得 %1（非流式的完整回答或嵌入）；延迟曲线改用 %2。</translation>
    </message>
    <message>
        <source>One load: with %1 the server completed %2. One load cannot show whether more users add throughput; add steps with fewer and more users.</source>
        <translation>单一负载：%1 时服务器完成 %2。单一负载无法说明更多用户是否增加吞吐量；请增加用户更少和更多的步。</translation>
    </message>
    <message>
        <source>One load: at %1 the server completed %2, %3 of the offered rate, so it was saturated there; one load cannot show where saturation begins: add lower rates.</source>
        <translation>单一负载：在 %1 时服务器完成 %2，为提供速率的 %3，因此该处已饱和；单一负载无法说明饱和从何处开始：请增加更低的速率。</translation>
    </message>
    <message>
        <source>One load: at %1 the server completed %2, %3 of the offered rate, so it kept up there; one load cannot show where it stops keeping up: add higher rates.</source>
        <translation>单一负载：在 %1 时服务器完成 %2，为提供速率的 %3，因此该处跟得上；单一负载无法说明何处开始跟不上：请增加更高的速率。</translation>
    </message>
    <message>
        <source>%1–%2</source>
        <comment>a range of loads: the lowest number, then the highest load with its unit</comment>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>%1 (95% interval %2–%3)</source>
        <translation>%1（95% 区间 %2–%3）</translation>
    </message>
    <message>
        <source>an outlier: the next step undid its rise</source>
        <translation>离群点：下一步撤销了它的上升</translation>
    </message>
    <message>
        <source>%1: outlier</source>
        <translation>%1：离群点</translation>
    </message>
    <message>
        <source>%1 is an outlier: %2 is %3 there, against %4 at %5 and %6 at %7; the next step undoes the rise, so the knee leaves it out.</source>
        <translation>%1 是离群点：该处 %2 为 %3，而 %5 时为 %4，%7 时为 %6；下一步撤销了这次上升，因此拐点分析不计入它。</translation>
    </message>
    <message>
        <source>beyond %1, %2 rises only from %3 to %4 at %5, less than a %6 rise.%7</source>
        <translation>超过 %1 后，%2 仅从 %3 升至 %5 时的 %4，增幅不到 %6。%7</translation>
    </message>
    <message>
        <source>%1 rises from %2 at %3 to %4 at %5, %6 more, which is under %7 of the SLO&apos;s %8 limit: far below the objective, the rise does not limit capacity.%9</source>
        <translation>%1 从 %3 时的 %2 升至 %5 时的 %4，增加 %6，不到 SLO 上限 %8 的 %7：远低于目标，这一上升不限制容量。%9</translation>
    </message>
    <message>
        <source>within the noise the steps measured</source>
        <translation>处于各步自身测得的噪声范围内</translation>
    </message>
    <message>
        <source>less than %1 above it, which the steps&apos; noise may explain</source>
        <translation>高出不到 %1，可能只是各步的噪声</translation>
    </message>
    <message>
        <source>%1 bends at %2 (%3) but is %4 at %5, %6: the rise is not sustained. Repeat the steps (load.plan.repeats) to narrow their intervals.</source>
        <translation>%1 在 %2（%3）处弯折，但在 %5 时为 %4，%6：上升没有持续。请重复这些步（load.plan.repeats）以缩小区间。</translation>
    </message>
    <message>
        <source>%1 rises only at the highest load, %2 (%3 against %4 at %5); one step does not make a knee: %6 to confirm it.</source>
        <translation>%1 仅在最高负载 %2 处上升（%3，而 %5 时为 %4）；一步不足以构成拐点：%6以确认。</translation>
    </message>
    <message>
        <source>No knee: every usable step ran at %1, and one load shows no curve; add steps at lower and higher loads.</source>
        <translation>无拐点：所有可用的步都在 %1 下运行，单一负载构不成曲线；请增加更低和更高负载的步。</translation>
    </message>
    <message>
        <source>No knee in %1: </source>
        <translation>%1 内无拐点：</translation>
    </message>
    <message>
        <source>%1 stayed between %2 and %3, less than a %4 rise.%5%6</source>
        <translation>%1 保持在 %2 与 %3 之间，增幅不到 %4。%5%6</translation>
    </message>
    <message>
        <source>%1 rises %2 without a bend that stands out.%3%4</source>
        <translation>%1 上升 %2，但没有明显的弯折。%3%4</translation>
    </message>
    <message>
        <source>No throughput knee: every usable step ran at %1; a bend takes several loads.</source>
        <translation>无吞吐量拐点：所有可用的步都在 %1 下运行；弯折需要多个负载。</translation>
    </message>
    <message>
        <source> Latency rises from the knee at %1 while throughput still keeps up: requests queue, but the server is not yet saturated.</source>
        <translation> 延迟从 %1 处的拐点开始上升，而吞吐量仍跟得上：请求在排队，但服务器尚未饱和。</translation>
    </message>
    <message>
        <source>No throughput knee: throughput grows in step with %1 from %2 to %3.%4%5%6</source>
        <translation>无吞吐量拐点：从 %2 到 %3，吞吐量随%1同步增长。%4%5%6</translation>
    </message>
    <message>
        <source>Collapse is unknown: it takes at least two loads to see throughput fall.</source>
        <translation>吞吐崩溃未知：至少需要两个负载才能看出吞吐量下降。</translation>
    </message>
    <message>
        <source>The one load tested, %1 (%2 achieved), met the SLO (%3), so the SLO capacity is at least that; %4 to find it.</source>
        <translation>唯一测试的负载 %1（实际 %2）满足 SLO（%3），因此 SLO 容量至少为此；%4以找到它。</translation>
    </message>
    <message>
        <source>No SLO capacity: the one load tested, %1, misses the SLO (%2); test lower loads.</source>
        <translation>无 SLO 容量：唯一测试的负载 %1 未满足 SLO（%2）；请测试更低的负载。</translation>
    </message>
    <message>
        <source>No recommended operating point yet: it takes at least two loads.</source>
        <translation>暂无推荐工作点：至少需要两个负载。</translation>
    </message>
    <message>
        <source>, the outlier at %1 aside</source>
        <translation>（%1 处的离群点除外）</translation>
    </message>
    <message>
        <source> and %1 stays at %2%3</source>
        <translation>，%1 保持在 %2%3</translation>
    </message>
    <message>
        <source> and %1 stays between %2 and %3%4</source>
        <translation>，%1 保持在 %2 与 %3 之间%4</translation>
    </message>
    <message>
        <source>The knee and saturation were measured on a cache-friendly workload: </source>
        <translation>拐点与饱和是在利于缓存的负载上测得的：</translation>
    </message>
    <message>
        <source>This sweep ran a cache-friendly workload: </source>
        <translation>本次扫描运行的是利于缓存的负载：</translation>
    </message>
    <message>
        <source> Send fresh prompts (workload.prompt_pool 0, or a dataset as large as the run) or reset the cache between steps (load.reset_cache_between_steps).</source>
        <translation> 请发送全新提示词（workload.prompt_pool 设为 0，或使用与运行规模相当的数据集），或在各步之间重置缓存（load.reset_cache_between_steps）。</translation>
    </message>
    <message>
        <source>%1 of input tokens came from the prefix cache because prompts repeat (%2 of requests re-sent a prompt already sent in this run); a server without that reuse would saturate earlier.</source>
        <translation>%1 的输入 token 来自前缀缓存，因为提示词重复（%2 的请求重发了本次运行中已发送过的提示词）；没有这种复用的服务器会更早饱和。</translation>
    </message>
    <message>
        <source>%1 of requests re-sent a prompt already sent in this run; a server with prefix caching answers them with little prefill, so a server without that reuse would saturate earlier.</source>
        <translation>%1 的请求重发了本次运行中已发送过的提示词；启用前缀缓存的服务器几乎无需预填充即可应答，因此没有这种复用的服务器会更早饱和。</translation>
    </message>
    <message>
        <source>the server&apos;s figures</source>
        <translation>服务器的数据</translation>
    </message>
    <message>
        <source>the client&apos;s figures</source>
        <translation>客户端的数据</translation>
    </message>
    <message>
        <source>%1 of input tokens came from the prefix cache (%2). Where that comes from prompts repeating rather than prefixes the traffic really shares, a server without that reuse would saturate earlier.</source>
        <translation>%1 的输入 token 来自前缀缓存（%2）。如果这源于提示词重复而非流量真正共享的前缀，没有这种复用的服务器会更早饱和。</translation>
    </message>
    <message>
        <source>%1 of input tokens came from the prefix cache (%2) though no prompt repeated: the workload shares prefixes (a system prompt, conversation history), so the findings hold for traffic that shares as much.</source>
        <translation>%1 的输入 token 来自前缀缓存（%2），但没有提示词重复：该负载共享前缀（系统提示词、对话历史），因此结论适用于共享程度相当的流量。</translation>
    </message>
    <message>
        <source>%1 sent every request at once and its file gives no throughput: it is not a point on the load axis.</source>
        <translation>%1 一次性发出了所有请求，且其文件未给出吞吐量：它不是负载轴上的一个点。</translation>
    </message>
    <message>
        <source> The client let at most %1 requests be in flight, which may be what held it back rather than the server.</source>
        <translation> 客户端最多只允许 %1 个请求同时进行，限制吞吐的可能是这一上限，而不是服务器。</translation>
    </message>
    <message>
        <source>Saturation at %1: the server completed %2, %3 of the offered rate (below %4%5).%6</source>
        <translation>在 %1 处饱和：服务器完成 %2，为目标请求速率的 %3（低于 %4%5）。%6</translation>
    </message>
    <message>
        <source>Saturation is unknown: from %1 on, throughput (%2) is the rate the requests were paced to (%3), so the rate, not the server, stops it growing; pace faster to find saturation.</source>
        <translation>饱和点未知：从 %1 起，吞吐量（%2）即请求被限定的发送速率（%3），因此阻止其增长的是该速率而不是服务器；请提高发送速率以找到饱和点。</translation>
    </message>
    <message>
        <source>One load: at %1 with at most %2 requests in flight the server completed %3, %4 of the offered rate; the cap on requests in flight or the server held it back, and one load cannot tell which: add steps at other rates and caps.</source>
        <translation>单一负载：在 %1、最多 %2 个请求同时进行时，服务器完成 %3，为提供速率的 %4；限制它的是同时进行请求数的上限或服务器，单一负载无法区分：请增加其他速率和上限的步。</translation>
    </message>
</context>
<context>
    <name>ModelMix</name>
    <message>
        <source>entry &quot;%1&quot;: expected NAME:WEIGHT, e.g. &quot;a:0.7,b:0.3&quot;</source>
        <translation>条目“%1”：应为 NAME:WEIGHT，例如“a:0.7,b:0.3”</translation>
    </message>
    <message>
        <source>entry &quot;%1&quot;: the weight &quot;%2&quot; is not a number</source>
        <translation>条目“%1”：权重“%2”不是数字</translation>
    </message>
    <message>
        <source>entry &quot;%1&quot;: the weight must be &gt;= 0</source>
        <translation>条目“%1”：权重必须 &gt;= 0</translation>
    </message>
    <message>
        <source>entry &quot;%1&quot;: the model &quot;%2&quot; is listed twice</source>
        <translation>条目“%1”：模型“%2”出现了两次</translation>
    </message>
    <message>
        <source>the weights of &quot;%1&quot; sum to %2; they must sum to a positive number</source>
        <translation>“%1”的权重之和为 %2；权重之和必须为正数</translation>
    </message>
    <message>
        <source>the weights of &quot;%1&quot; sum beyond what a number holds; weights are relative (a:1,b:1 is an even mix)</source>
        <translation>&quot;%1&quot; 的权重之和超出了数值能表示的范围；权重是相对的（a:1,b:1 即平均分配）</translation>
    </message>
</context>
<context>
    <name>Prediction</name>
    <message>
        <source>an unnamed run</source>
        <translation>一个未命名的运行</translation>
    </message>
    <message>
        <source>without overrides</source>
        <translation>未覆盖任何参数</translation>
    </message>
    <message>
        <source>with overrides %1</source>
        <translation>覆盖参数 %1</translation>
    </message>
    <message>
        <source>, %1 replicas</source>
        <translation>，%1 个副本</translation>
    </message>
    <message>
        <source>Predicted by a twin fitted to %1, %2%3; not a measurement</source>
        <translation>由拟合自 %1 的数字孪生预测，%2%3；并非实测</translation>
    </message>
    <message>
        <source>no per-request records: predicted</source>
        <translation>没有逐请求记录：预测结果</translation>
    </message>
</context>
<context>
    <name>Probe</name>
    <message>
        <source>An API key is configured and sent as Authorization: Bearer.</source>
        <translation>已配置 API 密钥，以 Authorization: Bearer 发送。</translation>
    </message>
    <message>
        <source>No API key is configured.</source>
        <translation>未配置 API 密钥。</translation>
    </message>
    <message>
        <source>No /health endpoint (common behind gateways); the other checks decide.</source>
        <translation>没有 /health 端点（网关后常见）；由其他检查决定。</translation>
    </message>
    <message>
        <source>Nothing listens on %1: the server is down or the port is wrong.</source>
        <translation>%1 上没有服务在监听：服务器未运行或端口错误。</translation>
    </message>
    <message>
        <source>The server could not be reached: check target.base_url and the network.</source>
        <translation>无法连接服务器：请检查 target.base_url 和网络。</translation>
    </message>
    <message>
        <source>The request went through the proxy %1; set target.proxy to &quot;none&quot; to bypass it, or add %2 to no_proxy.</source>
        <translation>请求经过了代理 %1；将 target.proxy 设为 &quot;none&quot; 可绕过它，或把 %2 加入 no_proxy。</translation>
    </message>
    <message>
        <source>skipped: server unreachable</source>
        <translation>已跳过：服务器不可达</translation>
    </message>
    <message>
        <source>HTTP %1 but the body passed %2 MiB: %3</source>
        <translation>HTTP %1，但响应体超过 %2 MiB：%3</translation>
    </message>
    <message>
        <source>This is not an OpenAI-compatible /v1/models answer: check target.base_url.</source>
        <translation>这不是 OpenAI 兼容的 /v1/models 响应：请检查 target.base_url。</translation>
    </message>
    <message>
        <source>models: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>HTTP 200 but no model list: %1</source>
        <translation>HTTP 200，但没有模型列表：%1</translation>
    </message>
    <message>
        <source>The configured model &quot;%1&quot; is not among them: set target.model to one of these.</source>
        <translation>配置的模型 &quot;%1&quot; 不在其中：请将 target.model 设为其中之一。</translation>
    </message>
    <message>
        <source>streamed 1 token, TTFT %1 ms</source>
        <translation>流式返回 1 个 token，TTFT %1 ms</translation>
    </message>
    <message>
        <source>streamed %1 tokens, TTFT %2 ms</source>
        <translation>流式返回 %1 个 token，TTFT %2 ms</translation>
    </message>
    <message>
        <source>could not connect to %1 within %2 s</source>
        <translation>%2 秒内未能连接到 %1</translation>
    </message>
    <message>
        <source>no answer from %1 within %2 s</source>
        <translation>%1 在 %2 秒内没有应答</translation>
    </message>
    <message>
        <source>The connection did not open within the preflight&apos;s %1 s (target.timeouts.connect_s when shorter): the host is down, or a firewall drops the packets.</source>
        <translation>连接未能在预检的 %1 秒内建立（target.timeouts.connect_s 更短时以它为准）：主机已关闭，或防火墙丢弃了数据包。</translation>
    </message>
    <message>
        <source>The server took the connection but did not answer within the preflight&apos;s %1 s per check (target.timeouts when shorter): it may be stuck, overloaded or still loading its model.</source>
        <translation>服务器接受了连接，但未在预检每项检查的 %1 秒内应答（target.timeouts 更短时以它为准）：它可能卡住、过载或仍在加载模型。</translation>
    </message>
    <message>
        <source>skipped: the server did not answer /health</source>
        <translation>已跳过：服务器未应答 /health</translation>
    </message>
    <message>
        <source>the answer from %1 did not end within %2 s</source>
        <translation>%1 的应答未在 %2 秒内结束</translation>
    </message>
    <message>
        <source>no first token from %1 within %2 s</source>
        <translation>%1 在 %2 秒内没有返回首 token</translation>
    </message>
    <message>
        <source>answered in %1 ms, not streamed</source>
        <translation>%1 ms 内返回完整回答（非流式）</translation>
    </message>
</context>
<context>
    <name>Profile</name>
    <message>
        <source>must be &gt; 0</source>
        <translation>必须 &gt; 0</translation>
    </message>
    <message>
        <source>must be &gt;= 0</source>
        <translation>必须 &gt;= 0</translation>
    </message>
    <message>
        <source>must be &gt;= 1</source>
        <translation>必须 &gt;= 1</translation>
    </message>
    <message>
        <source>must be in (0, 100]</source>
        <translation>必须在 (0, 100] 之内</translation>
    </message>
    <message>
        <source>must be in [0, 1]</source>
        <translation>必须在 [0, 1] 之内</translation>
    </message>
    <message>
        <source>must be in (0, 1]</source>
        <translation>必须在 (0, 1] 之内</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>must be an http:// or https:// URL with a host (or sim://PRESET for the built-in simulator), got &quot;%1&quot;</source>
        <translation>必须是带主机名的 http:// 或 https:// URL（内置模拟器用 sim://PRESET），实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>must start with &quot;/&quot;</source>
        <translation>必须以 &quot;/&quot; 开头</translation>
    </message>
    <message>
        <source>&quot;keychain:&quot; needs an entry name, e.g. keychain:vllm-prod</source>
        <translation>&quot;keychain:&quot; 需要条目名称，例如 keychain:vllm-prod</translation>
    </message>
    <message>
        <source>&quot;file:&quot; needs a path, e.g. file:~/.config/kneepoint/key</source>
        <translation>&quot;file:&quot; 需要路径，例如 file:~/.config/kneepoint/key</translation>
    </message>
    <message>
        <source>is not a valid HTTP header name</source>
        <translation>不是有效的 HTTP 头名称</translation>
    </message>
    <message>
        <source>must not contain line breaks</source>
        <translation>不能包含换行</translation>
    </message>
    <message>
        <source>must be an http:// or https:// URL, or &quot;off&quot;, got &quot;%1&quot;</source>
        <translation>必须是 http:// 或 https:// URL，或 &quot;off&quot;，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>must be &quot;none&quot;, &quot;system&quot; or an http://, https:// or socks5:// URL with a host, got &quot;%1&quot;</source>
        <translation>必须是 &quot;none&quot;、&quot;system&quot;，或带主机名的 http://、https:// 或 socks5:// URL，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>unknown dataset &quot;%1&quot;; expected one of %2</source>
        <translation>未知数据集 &quot;%1&quot;；应为以下之一：%2</translation>
    </message>
    <message>
        <source>is required when %1 is &quot;%2&quot;</source>
        <translation>当 %1 为 &quot;%2&quot; 时必填</translation>
    </message>
    <message>
        <source>must be in [0, 1)</source>
        <translation>必须在 [0, 1) 之内</translation>
    </message>
    <message>
        <source>expected &quot;skip&quot; or &quot;fail&quot;, got &quot;%1&quot;</source>
        <translation>应为 &quot;skip&quot; 或 &quot;fail&quot;，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>must be a number &gt; 0</source>
        <translation>必须是 &gt; 0 的数</translation>
    </message>
    <message>
        <source>must be &gt;= 0 (0: num_prompts / num_prefixes)</source>
        <translation>必须 &gt;= 0（0：num_prompts / num_prefixes）</translation>
    </message>
    <message>
        <source>edges must be &gt;= 0 and increasing</source>
        <translation>边界必须 &gt;= 0 且递增</translation>
    </message>
    <message>
        <source>must be &gt;= -1 (-1 or 0: disabled)</source>
        <translation>必须 &gt;= -1（-1 或 0：不启用）</translation>
    </message>
    <message>
        <source>must be in [-2, 2]</source>
        <translation>必须在 [-2, 2] 之内</translation>
    </message>
    <message>
        <source>must be &gt;= load.plan.start</source>
        <translation>必须 &gt;= load.plan.start</translation>
    </message>
    <message>
        <source>must be &gt;= 2 for a range</source>
        <translation>范围至少需要 2</translation>
    </message>
    <message>
        <source>must be in (0, 1)</source>
        <translation>必须在 (0, 1) 之内</translation>
    </message>
    <message>
        <source>needs at least one rate</source>
        <translation>至少需要一个速率</translation>
    </message>
    <message>
        <source>needs at least one concurrency</source>
        <translation>至少需要一个并发数</translation>
    </message>
    <message>
        <source>must be in [1, 65535]</source>
        <translation>必须在 [1, 65535] 之内</translation>
    </message>
    <message>
        <source>unknown metric &quot;%1&quot;; expected one of %2</source>
        <translation>未知指标 &quot;%1&quot;；应为以下之一：%2</translation>
    </message>
    <message>
        <source>no API key</source>
        <translation>无 API 密钥</translation>
    </message>
    <message>
        <source>the key written in the profile</source>
        <translation>写在配置中的密钥</translation>
    </message>
    <message>
        <source>environment variable %1</source>
        <translation>环境变量 %1</translation>
    </message>
    <message>
        <source>environment variable OPENAI_API_KEY (no key in the profile)</source>
        <translation>环境变量 OPENAI_API_KEY（配置中没有密钥）</translation>
    </message>
    <message>
        <source>the key file %1</source>
        <translation>密钥文件 %1</translation>
    </message>
    <message>
        <source>keychain entry %1</source>
        <translation>密钥环条目 %1</translation>
    </message>
    <message>
        <source>is not a number (nan)</source>
        <translation>不是数字（nan）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a key the result file writes itself; choose another name</source>
        <translation>“%1”是结果文件自己写入的键；请换一个名字</translation>
    </message>
    <message>
        <source>cannot be used with the %1 dataset: its requests are sent on the log&apos;s own schedule, not as conversations</source>
        <translation>不能与 %1 数据集一起使用：其请求按日志自身的时间表发送，而不是作为对话</translation>
    </message>
    <message>
        <source>cannot be used with the shared-prefix dataset: it has no conversations; use random with workload.turns</source>
        <translation>不能与 shared-prefix 数据集一起使用：它没有对话；请使用 random 并设置 workload.turns</translation>
    </message>
    <message>
        <source>expected &quot;recorded&quot; or &quot;live&quot;, got &quot;%1&quot;</source>
        <translation>应为 &quot;recorded&quot; 或 &quot;live&quot;，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>must be a number &gt;= 0</source>
        <translation>必须是 &gt;= 0 的数字</translation>
    </message>
    <message>
        <source>give either target.metrics_url or target.metrics_urls, not both (metrics_url is &quot;%1&quot;)</source>
        <translation>请只填写 target.metrics_url 或 target.metrics_urls 之一，不要同时填写（metrics_url 为“%1”）</translation>
    </message>
    <message>
        <source>unknown distribution &quot;%1&quot;; expected one of %2</source>
        <translation>未知分布“%1”；应为以下之一：%2</translation>
    </message>
    <message>
        <source>must be at least 1 when %1 is set</source>
        <translation>设置了 %1 时必须至少为 1</translation>
    </message>
    <message>
        <source>unknown image format &quot;%1&quot;; expected one of %2</source>
        <translation>未知的图像格式“%1”；应为 %2 之一</translation>
    </message>
    <message>
        <source>must be WIDTHxHEIGHT in pixels, each 1 to 8192 (e.g. 448x448), got &quot;%1&quot;</source>
        <translation>必须是以像素为单位的 宽x高，每边 1 到 8192（如 448x448），实际为“%1”</translation>
    </message>
    <message>
        <source>images need a chat backend (openai-chat, openai-responses or anthropic-messages); %1 takes none</source>
        <translation>图像需要聊天类后端（openai-chat、openai-responses 或 anthropic-messages）；%1 不接受图像</translation>
    </message>
    <message>
        <source>images go with single prompts, not multi_turn sessions</source>
        <translation>图像只能用于单个提示，不能用于 multi_turn 会话</translation>
    </message>
    <message>
        <source>required with %1 (WIDTHxHEIGHT in pixels, e.g. 448x448), unless %2 gives the images</source>
        <translation>设置 %1 时必填（宽x高，单位为像素，例如 448x448），除非由 %2 提供图片</translation>
    </message>
    <message>
        <source>%1 embeds inputs and answers nothing, so it has no conversations; multi_turn needs a chat backend</source>
        <translation>%1 只做输入嵌入、不生成回答，因此没有对话；multi_turn 需要聊天后端</translation>
    </message>
    <message>
        <source>must be &gt;= 0 (0: the default of %1)</source>
        <translation>必须 &gt;= 0（0：默认值 %1）</translation>
    </message>
    <message>
        <source>must be in %1</source>
        <translation>必须在 %1 之内</translation>
    </message>
    <message>
        <source>must be &gt; %1</source>
        <translation>必须 &gt; %1</translation>
    </message>
    <message>
        <source>must be &gt;= %1</source>
        <translation>必须 &gt;= %1</translation>
    </message>
    <message>
        <source>%1 is below the limit %2</source>
        <translation>%1 低于下限 %2</translation>
    </message>
    <message>
        <source>%1 is above the limit %2</source>
        <translation>%1 超过上限 %2</translation>
    </message>
    <message>
        <source>must be &lt; %1</source>
        <translation>必须 &lt; %1</translation>
    </message>
    <message>
        <source>must be &lt;= %1</source>
        <translation>必须 &lt;= %1</translation>
    </message>
    <message>
        <source>%1 images of %2 are %3 MB of pixels to encode for every request, above the limit of %4 MB per request; send fewer or smaller images</source>
        <translation>%1 张 %2 的图像意味着每个请求要编码 %3 MB 像素，超过每个请求 %4 MB 的上限；请发送更少或更小的图像</translation>
    </message>
    <message>
        <source>&quot;soak&quot; runs at a request rate, not at a concurrency</source>
        <translation>“soak” 按请求速率运行，而不是按并发</translation>
    </message>
    <message>
        <source>must be &quot;list&quot; with load.mode &quot;soak&quot;: a soak runs one rate</source>
        <translation>load.mode 为 “soak” 时必须是 “list”：浸泡测试只运行一个速率</translation>
    </message>
    <message>
        <source>a soak runs one finite rate (req/s)</source>
        <translation>浸泡测试运行一个有限的速率 (req/s)</translation>
    </message>
    <message>
        <source>expected &quot;process&quot; or &quot;commands&quot;, got &quot;%1&quot;</source>
        <translation>应为 “process” 或 “commands”，实际为 “%1”</translation>
    </message>
    <message>
        <source>a parameter&apos;s name is letters, digits and _ (not &quot;port&quot;, which is chosen by Kneepoint)</source>
        <translation>参数名由字母、数字和 _ 组成（不能是 “port”，它由 Kneepoint 选择）</translation>
    </message>
    <message>
        <source>expected a list of one or more values</source>
        <translation>应为包含一个或多个值的列表</translation>
    </message>
    <message>
        <source>expected a text, a number or true/false</source>
        <translation>应为文本、数字或 true/false</translation>
    </message>
    <message>
        <source>is required when server_sweep.parameters is set</source>
        <translation>设置了 server_sweep.parameters 时为必填</translation>
    </message>
</context>
<context>
    <name>ProfileReader</name>
    <message>
        <source>an object</source>
        <translation>一个对象</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>一个列表</translation>
    </message>
    <message>
        <source>string %1</source>
        <translation>字符串 %1</translation>
    </message>
    <message>
        <source>number %1</source>
        <translation>数字 %1</translation>
    </message>
    <message>
        <source>not used by Kneepoint (%1); ignored</source>
        <translation>Kneepoint 不使用（%1）；已忽略</translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation>应为%1，实际为%2</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>%1 is out of range</source>
        <translation>%1 超出范围</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>an object of header names and values</source>
        <translation>由头名称和值组成的对象</translation>
    </message>
    <message>
        <source> (did you mean &quot;%1&quot;?)</source>
        <translation>（是否想写 &quot;%1&quot;？）</translation>
    </message>
    <message>
        <source>unknown key, ignored</source>
        <translation>未知键，已忽略</translation>
    </message>
    <message>
        <source>is required when both rates and concurrencies are given</source>
        <translation>同时给出 rates 和 concurrencies 时必填</translation>
    </message>
    <message>
        <source>an object, or the name of a saved target</source>
        <translation>一个对象，或已保存目标的名称</translation>
    </message>
    <message>
        <source>token counts come from the server&apos;s usage reports</source>
        <translation>token 数来自服务器的 usage 报告</translation>
    </message>
    <message>
        <source>give one of request_rate, request_rates or rates</source>
        <translation>请只给出 request_rate、request_rates 或 rates 之一</translation>
    </message>
    <message>
        <source>a profile must be an object at the top level</source>
        <translation>配置的顶层必须是一个对象</translation>
    </message>
    <message>
        <source>%1 is not a number</source>
        <translation>%1 不是数字</translation>
    </message>
    <message>
        <source>must be a finite number, got %1</source>
        <translation>必须是有限的数字，实际为 %1</translation>
    </message>
    <message>
        <source>the API key is stored in plain text in %1; keep it out of the file with &quot;${VAR}&quot; (an environment variable), &quot;keychain:ENTRY&quot; (the desktop keychain) or &quot;file:PATH&quot; (a file of its own)</source>
        <translation>API 密钥以明文保存在 %1 中；请改用 &quot;${VAR}&quot;（环境变量）、&quot;keychain:ENTRY&quot;（桌面密钥环）或 &quot;file:PATH&quot;（单独的密钥文件），不要把密钥写在文件里</translation>
    </message>
</context>
<context>
    <name>ProfileStore</name>
    <message>
        <source>%1: profiles are saved as JSON in Kneepoint&apos;s schema; choose a .json file name</source>
        <translation>%1：配置以 Kneepoint 模式的 JSON 保存；请选择 .json 文件名</translation>
    </message>
    <message>
        <source>%1: cannot create the directory %2</source>
        <translation>%1：无法创建目录 %2</translation>
    </message>
    <message>
        <source>%1: cannot keep the previous version as %2; the profile is unchanged</source>
        <translation>%1：无法把旧版本保留为 %2；配置未改动</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>%1: the chart could not be drawn</source>
        <translation>%1：无法绘制图表</translation>
    </message>
    <message>
        <source>The target failed the preflight check; no load was sent.</source>
        <translation>目标未通过预检，未发送负载。</translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation>%1（%2）：%3</translation>
    </message>
    <message>
        <source>The API key (%1) would be sent over plain HTTP to %2, which is not this machine: anyone on the way can read it.</source>
        <translation>API 密钥（%1）将通过明文 HTTP 发送到 %2，而它不是本机：途经的任何人都能读到它。</translation>
    </message>
    <message>
        <source>The plan goes past the load limits: %1.</source>
        <translation>计划超出了负载上限：%1。</translation>
    </message>
    <message>
        <source>This sweep sends %1 (more than %2 requests to another machine).</source>
        <translation>此次扫描将发送 %1（向另一台机器发送超过 %2 个请求）。</translation>
    </message>
    <message>
        <source>TLS certificates are not checked (target.tls_verify is off): the server&apos;s identity is not verified.</source>
        <translation>不检查 TLS 证书（target.tls_verify 已关闭）：服务器身份未经验证。</translation>
    </message>
    <message>
        <source>Start the sweep?</source>
        <translation>开始扫描？</translation>
    </message>
    <message>
        <source>Before the sweep starts, please confirm:</source>
        <translation>扫描开始前，请确认：</translation>
    </message>
    <message>
        <source>Start anyway</source>
        <translation>仍然开始</translation>
    </message>
    <message>
        <source>Run against targets</source>
        <translation>对多个目标运行</translation>
    </message>
    <message>
        <source>The current profile is swept against each chosen target (and model), one after another. When all have run, the comparison opens.</source>
        <translation>依次用当前配置对每个选中的目标（及模型）执行扫描。全部运行完后打开对比。</translation>
    </message>
    <message>
        <source>optional: model ids separated by commas</source>
        <translation>可选：用逗号分隔的模型 ID</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型列表</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Credentials (%1) would be sent over plain HTTP to %2, which is not this machine: anyone on the way can read it.</source>
        <translation>凭据（%1）将通过明文 HTTP 发送到非本机的 %2：途中任何人都能读取。</translation>
    </message>
    <message>
        <source>Requests would fail: %1.</source>
        <translation>请求将会失败：%1。</translation>
    </message>
    <message>
        <source>%1 (%2), after %3 tries: %4</source>
        <translation>%1（%2），尝试 %3 次后：%4</translation>
    </message>
</context>
<context>
    <name>RunCatalog</name>
    <message>
        <source>%1: cannot read: %2</source>
        <translation>%1：无法读取：%2</translation>
    </message>
    <message>
        <source>%1: not a run file: %2</source>
        <translation>%1：不是运行记录文件：%2</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>应为对象</translation>
    </message>
    <message>
        <source>no run given (an id, a name or a directory)</source>
        <translation>未指定运行（ID、名称或目录）</translation>
    </message>
    <message>
        <source>%1: not a run directory (no run.json)</source>
        <translation>%1：不是运行目录（没有 run.json）</translation>
    </message>
    <message>
        <source>%1: no such run directory</source>
        <translation>%1：没有这个运行目录</translation>
    </message>
    <message>
        <source>no run &quot;%1&quot; in %2 (give an id, a name or a run directory)</source>
        <translation>%2 中没有运行 &quot;%1&quot;（请给出 ID、名称或运行目录）</translation>
    </message>
    <message>
        <source>%1: a sweep is still writing this run; stop it first</source>
        <translation>%1：扫描仍在写入此运行；请先停止它</translation>
    </message>
    <message>
        <source>%1: cannot create the trash folder</source>
        <translation>%1：无法创建回收站文件夹</translation>
    </message>
    <message>
        <source>%1: cannot move it to %2</source>
        <translation>%1：无法移动到 %2</translation>
    </message>
    <message>
        <source>%1: not a run directory in the trash</source>
        <translation>%1：不是回收站中的运行目录</translation>
    </message>
    <message>
        <source>%1: cannot restore: %2 exists</source>
        <translation>%1：无法恢复：%2 已存在</translation>
    </message>
    <message>
        <source>%1: cannot move it back to %2</source>
        <translation>%1：无法移回 %2</translation>
    </message>
</context>
<context>
    <name>SafetyGuard</name>
    <message>
        <source>the API key (%1) would be sent over plain HTTP to %2, which is not this machine: anyone on the way can read it. Use https://, or confirm.</source>
        <translation>API 密钥（%1）将以明文 HTTP 发送到 %2，而它不是本机：途中任何人都能读到。请使用 https://，或确认继续。</translation>
    </message>
    <message>
        <source>a step at %1 req/s passes the limit of %2 req/s</source>
        <translation>有一步为 %1 req/s，超过上限 %2 req/s</translation>
    </message>
    <message>
        <source>a step of %1 users passes the limit of %2 concurrent requests</source>
        <translation>有一步为 %1 并发，超过上限 %2 个并发请求</translation>
    </message>
    <message>
        <source>a step at rate inf sends all %1 requests at once, past the limit of %2 concurrent requests (set load.max_concurrency)</source>
        <translation>速率为 inf 的一步会一次发出全部 %1 个请求，超过上限 %2 个并发请求（请设置 load.max_concurrency）</translation>
    </message>
    <message>
        <source>load.max_concurrency %1 passes the limit of %2</source>
        <translation>load.max_concurrency %1 超过上限 %2</translation>
    </message>
    <message>
        <source>up to 1 step</source>
        <translation>最多 1 步</translation>
    </message>
    <message>
        <source>1 step</source>
        <translation>1 步</translation>
    </message>
    <message>
        <source>up to %1 steps</source>
        <translation>最多 %1 步</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 步</translation>
    </message>
    <message>
        <source>%1, %2 requests, about %3 tokens (%4 prompt + %5 output) to %6</source>
        <translation>%1，%2 个请求，约 %3 个 token（%4 提示 + %5 输出），发往 %6</translation>
    </message>
    <message>
        <source>the %1 header</source>
        <translation>%1 请求头</translation>
    </message>
    <message>
        <source>the URL&apos;s password</source>
        <translation>URL 中的密码</translation>
    </message>
    <message>
        <source>%1 would be sent over plain HTTP to %2, which is not this machine: anyone on the way can read it. Use https://, or confirm.</source>
        <translation>%1 将通过明文 HTTP 发送到非本机的 %2：途中任何人都能读取。请使用 https://，或确认。</translation>
    </message>
    <message>
        <source>the plan holds up to %1 requests open at once, but this process may open only %2 files and sockets (ulimit -n): raise the limit to at least %3, or lower the concurrency</source>
        <translation>计划同时保持最多 %1 个请求，但本进程最多只能打开 %2 个文件和套接字（ulimit -n）：请把上限提高到至少 %3，或降低并发</translation>
    </message>
</context>
<context>
    <name>ServerAnalysis</name>
    <message>
        <source>KV cache reached %1 at %2; the waiting queue grew from there.</source>
        <translation>KV 缓存在 %2 时达到 %1；等待队列从此开始增长。</translation>
    </message>
    <message>
        <source>KV cache reached %1 at %2.</source>
        <translation>KV 缓存在 %2 时达到 %1。</translation>
    </message>
    <message>
        <source>KV cache usage peaked at %1 (at %2): the cache did not fill.</source>
        <translation>KV 缓存使用率峰值为 %1（在 %2 时）：缓存未满。</translation>
    </message>
    <message>
        <source>The server&apos;s waiting queue grew from %1 on.</source>
        <translation>服务器的等待队列从 %1 起开始增长。</translation>
    </message>
    <message>
        <source>Preemptions began at %1 (%2 in that step).</source>
        <translation>抢占从 %1 开始（该步 %2 次）。</translation>
    </message>
    <message>
        <source>The server&apos;s own TTFT was %1 ms below the client&apos;s on average: network and client overhead.</source>
        <translation>服务器自身统计的 TTFT 平均比客户端低 %1 ms：这是网络和客户端开销。</translation>
    </message>
    <message>
        <source>The server&apos;s own TTFT was %1 ms above the client&apos;s on average: its clock or histogram buckets do not match the client&apos;s measurement.</source>
        <translation>服务器自身统计的 TTFT 平均比客户端高 %1 ms：其时钟或直方图分桶与客户端的测量不一致。</translation>
    </message>
    <message>
        <source>the all-at-once step</source>
        <translation>一次性全部发送的步骤</translation>
    </message>
    <message>
        <source>the server&apos;s figures</source>
        <translation>服务器的数据</translation>
    </message>
    <message>
        <source>the client&apos;s figures: the cached tokens the responses reported</source>
        <translation>客户端的数据：响应中报告的缓存 token</translation>
    </message>
    <message>
        <source>The prefix-cache hit rate fell from %1 to %2 from %3 on, as the KV cache filled and evicted prefixes (%4).</source>
        <translation>前缀缓存命中率从 %3 起由 %1 降至 %2，因为 KV 缓存已满并逐出了前缀（%4）。</translation>
    </message>
    <message>
        <source>The prefix-cache hit rate fell from %1 to %2 from %3 on (%4).</source>
        <translation>前缀缓存命中率从 %3 起由 %1 降至 %2（%4）。</translation>
    </message>
    <message>
        <source>The prefix-cache hit rate rose from %1 at %2 to %3 at %4 (%5).</source>
        <translation>前缀缓存命中率由 %2 时的 %1 升至 %4 时的 %3（%5）。</translation>
    </message>
    <message>
        <source>The prefix-cache hit rate was %1 at %2 (%3).</source>
        <translation>前缀缓存命中率在 %2 时为 %1（%3）。</translation>
    </message>
    <message>
        <source>The prefix-cache hit rate held steady at about %1 from %2 to %3 (%4).</source>
        <translation>前缀缓存命中率从 %2 到 %3 稳定在约 %1（%4）。</translation>
    </message>
    <message>
        <source>its KV cache reached %1</source>
        <translation>其 KV 缓存达到 %1</translation>
    </message>
    <message>
        <source>%1 requests waited on average</source>
        <translation>平均有 %1 个请求在等待</translation>
    </message>
    <message>
        <source>the next of the %1 servers only at %2</source>
        <translation>%1 台服务器中的下一台直到 %2 才饱和</translation>
    </message>
    <message>
        <source>the other %1 not up to %2</source>
        <translation>其余 %1 台直到 %2 都未饱和</translation>
    </message>
    <message>
        <source>One server saturated before the others: %1 at %2 (%3), %4; the load is not spread evenly, or that server is slower.</source>
        <translation>有一台服务器先于其他服务器饱和：%1 在 %2 时（%3），%4；负载分配不均，或该服务器较慢。</translation>
    </message>
    <message>
        <source>%1 busy</source>
        <translation>利用率 %1</translation>
    </message>
    <message>
        <source>drawing %1</source>
        <translation>功耗 %1</translation>
    </message>
    <message>
        <source>%1 J per output token</source>
        <translation>每个输出 token %1 J</translation>
    </message>
    <message>
        <source>The %1 GPUs were</source>
        <translation>%1 块 GPU</translation>
    </message>
    <message>
        <source>The GPUs were</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>%1 %2 at %3.</source>
        <translation>在 %3 时，%1：%2。</translation>
    </message>
    <message>
        <source>They were %1 busy from %2 on.</source>
        <translation>从 %2 起利用率达到 %1。</translation>
    </message>
    <message>
        <source>They were already %1 busy at %2: GPU utilisation counts the time any kernel runs, not how full the batch is, so it says little about the headroom left.</source>
        <translation>在 %2 时利用率就已达到 %1：GPU 利用率统计的是有任何内核运行的时间，而不是批次有多满，因此它几乎说明不了剩余的余量。</translation>
    </message>
    <message>
        <source>The prefix cache found almost nothing to reuse (a hit rate under 0.5% from %1 to %2, %3): the prompts share no prefix.</source>
        <translation>前缀缓存几乎没有可复用的内容（从 %1 到 %2 命中率低于 0.5%，%3）：提示词没有共同前缀。</translation>
    </message>
    <message>
        <source>From %1 on, queue time is %2 of mean TTFT: requests wait for a batch slot; max_num_seqs or more replicas raise the knee, a faster prefill does not.</source>
        <translation>从 %1 起，排队时间占平均 TTFT 的 %2：请求在等待批处理槽位；提高 max_num_seqs 或增加副本能抬高拐点，更快的预填充则不能。</translation>
    </message>
    <message>
        <source>From %1 on, prefill time is %2 of mean TTFT: prompts take longer to process as the batch fills; a larger token budget per step (max_num_batched_tokens), prefix caching or a faster GPU raise the knee, more batch slots do not.</source>
        <translation>从 %1 起，预填充时间占平均 TTFT 的 %2：批次填满后提示处理变慢；更大的每步 token 预算 (max_num_batched_tokens)、前缀缓存或更快的 GPU 能抬高拐点，更多批处理槽位则不能。</translation>
    </message>
    <message>
        <source>From %1 on, %2 of mean TTFT is spent outside the server&apos;s queue and prefill (network, new connections, the client): check the client&apos;s health and the network before tuning the server.</source>
        <translation>从 %1 起，平均 TTFT 的 %2 花在服务器的排队和预填充之外（网络、新连接、客户端）：调优服务器之前请先检查客户端状况和网络。</translation>
    </message>
</context>
<context>
    <name>ServerSweep</name>
    <message>
        <source>%1 users</source>
        <translation>%1 并发</translation>
    </message>
    <message>
        <source>%1 req/s</source>
        <translation>%1 req/s</translation>
    </message>
    <message>
        <source>No configuration met the SLO at any load it was swept at, so none can be named best.</source>
        <translation>没有任何配置在其扫描的负载下满足 SLO，因此无法指出最佳配置。</translation>
    </message>
    <message>
        <source>No configuration reached a knee, so none can be named best; set an SLO or sweep higher loads.</source>
        <translation>没有任何配置到达拐点，因此无法指出最佳配置；请设置 SLO 或扫描更高的负载。</translation>
    </message>
    <message>
        <source>the most load within the SLO per GPU: %1 on %2 GPU(s), %3 per GPU</source>
        <translation>每 GPU 在 SLO 内承载的负载最高：%2 个 GPU 上 %1，每 GPU %3</translation>
    </message>
    <message>
        <source>the most load within the SLO: %1</source>
        <translation>SLO 内承载的负载最高：%1</translation>
    </message>
    <message>
        <source>the highest knee: %1 (no SLO was set)</source>
        <translation>拐点最高：%1（未设置 SLO）</translation>
    </message>
    <message>
        <source>, %1× the next best (%2)</source>
        <translation>，为次优 (%2) 的 %1 倍</translation>
    </message>
    <message>
        <source>; the next best (%1) has none</source>
        <translation>；次优 (%1) 没有</translation>
    </message>
    <message>
        <source> It met the SLO at the highest load swept: sweep higher to find its limit.</source>
        <translation> 它在扫描的最高负载下仍满足 SLO：请扫描更高负载以找到其极限。</translation>
    </message>
    <message>
        <source>Best configuration for the SLO: %1, with %2%3.%4</source>
        <translation>满足 SLO 的最佳配置：%1，%2%3。%4</translation>
    </message>
    <message>
        <source>Best configuration: %1, with %2%3.</source>
        <translation>最佳配置：%1，%2%3。</translation>
    </message>
    <message>
        <source>configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>knee</source>
        <translation>拐点</translation>
    </message>
    <message>
        <source>SLO capacity</source>
        <translation>SLO 容量</translation>
    </message>
    <message>
        <source>per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>peak req/s</source>
        <translation>峰值 req/s</translation>
    </message>
    <message>
        <source>best tok/s/GPU</source>
        <translation>最佳 tok/s/GPU</translation>
    </message>
    <message>
        <source>best tok/s</source>
        <translation>最佳 tok/s</translation>
    </message>
    <message>
        <source>front</source>
        <translation>前沿</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>, best</source>
        <translation>，最佳</translation>
    </message>
    <message>
        <source>The twin fitted on %1, set to each other configuration&apos;s parameters:
</source>
        <translation>在 %1 上拟合的孪生模型，设为其他各配置的参数：
</translation>
    </message>
    <message>
        <source>  %1: %2 %3 predicted, %4 measured (%5)
</source>
        <translation>  %1：预测 %2 %3，实测 %4 (%5)
</translation>
    </message>
    <message>
        <source>error %1%</source>
        <translation>误差 %1%</translation>
    </message>
    <message>
        <source>No twin check: %1.
</source>
        <translation>无孪生模型校验：%1。
</translation>
    </message>
    <message>
        <source>%1: /bin/sh did not start: %2</source>
        <translation>%1：/bin/sh 未能启动：%2</translation>
    </message>
    <message>
        <source>was ended by a signal</source>
        <translation>被信号终止</translation>
    </message>
    <message>
        <source>exited with status 127 (command not found)</source>
        <translation>以状态 127 退出（找不到命令）</translation>
    </message>
    <message>
        <source>exited with status 126 (not executable)</source>
        <translation>以状态 126 退出（不可执行）</translation>
    </message>
    <message>
        <source>exited with status %1</source>
        <translation>以状态 %1 退出</translation>
    </message>
    <message>
        <source>%1: the start command %2%3</source>
        <translation>%1：启动命令%2%3</translation>
    </message>
    <message>
        <source>%1: the server command %2 before the server answered%3</source>
        <translation>%1：服务器命令在服务器应答之前%2%3</translation>
    </message>
    <message>
        <source>%1: the server %2%3</source>
        <translation>%1：服务器%2%3</translation>
    </message>
    <message>
        <source>%1: the server was not ready after %2 s (server_sweep.ready_timeout_s): %3/health and /v1/models did not answer%4</source>
        <translation>%1：服务器在 %2 秒后仍未就绪 (server_sweep.ready_timeout_s)：%3/health 和 /v1/models 均无应答%4</translation>
    </message>
    <message>
        <source> (last: %1)</source>
        <translation>（最后一行：%1）</translation>
    </message>
    <message>
        <source>%1: the server did not stop within %2 s of SIGTERM (server_sweep.grace_s); its process group was killed</source>
        <translation>%1：服务器在 SIGTERM 后 %2 秒内未停止 (server_sweep.grace_s)；已杀死其进程组</translation>
    </message>
    <message>
        <source>%1: the stop command did not end within %2 s; it was killed</source>
        <translation>%1：停止命令在 %2 秒内未结束；已将其杀死</translation>
    </message>
    <message>
        <source>%1: the stop command %2%3</source>
        <translation>%1：停止命令%2%3</translation>
    </message>
    <message>
        <source>(no parameters)</source>
        <translation>（无参数）</translation>
    </message>
    <message>
        <source>server_sweep.mode: expected &quot;process&quot; or &quot;commands&quot;, got &quot;%1&quot;</source>
        <translation>server_sweep.mode：应为 “process” 或 “commands”，实际为 “%1”</translation>
    </message>
    <message>
        <source>server_sweep.command: is required (kneepoint-cli sweep --serve CMD)</source>
        <translation>server_sweep.command：为必填 (kneepoint-cli sweep --serve CMD)</translation>
    </message>
    <message>
        <source>server_sweep.stop_command: only in the commands mode (server_sweep.mode &quot;commands&quot;, --serve-mode commands); in the process mode Kneepoint stops the server itself</source>
        <translation>server_sweep.stop_command：仅用于 commands 模式 (server_sweep.mode “commands”，--serve-mode commands)；在 process 模式下由 Kneepoint 自己停止服务器</translation>
    </message>
    <message>
        <source>%1: {port} is chosen by Kneepoint; name the parameter otherwise</source>
        <translation>%1：{port} 由 Kneepoint 选择；请为参数另取名称</translation>
    </message>
    <message>
        <source>%1: expected a list of one or more values</source>
        <translation>%1：应为包含一个或多个值的列表</translation>
    </message>
    <message>
        <source>%1: the command never uses {%2}, so its runs would not differ</source>
        <translation>%1：命令从未使用 {%2}，因此各次运行不会有差别</translation>
    </message>
    <message>
        <source>server_sweep.command: {%1} is not a parameter (add it with --serve-param %1=V1,V2 or under server_sweep.parameters)</source>
        <translation>server_sweep.command：{%1} 不是参数（用 --serve-param %1=V1,V2 或在 server_sweep.parameters 下添加）</translation>
    </message>
    <message>
        <source>--serve-param &quot;%1&quot;: expected NAME=V1,V2,... (NAME: letters, digits and _)</source>
        <translation>--serve-param “%1”：应为 NAME=V1,V2,...（NAME：字母、数字和 _）</translation>
    </message>
    <message>
        <source>--serve-param &quot;%1&quot;: {port} is chosen by Kneepoint</source>
        <translation>--serve-param “%1”：{port} 由 Kneepoint 选择</translation>
    </message>
    <message>
        <source>--serve-param &quot;%1&quot;: no values after =</source>
        <translation>--serve-param “%1”：= 之后没有值</translation>
    </message>
    <message>
        <source>no free TCP port on 127.0.0.1: %1</source>
        <translation>127.0.0.1 上没有空闲的 TCP 端口：%1</translation>
    </message>
    <message>
        <source>no configuration finished its sweep, so no twin was fitted</source>
        <translation>没有任何配置完成扫描，因此未拟合孪生模型</translation>
    </message>
    <message>
        <source>the twin could not be fitted on %1: %2</source>
        <translation>无法在 %1 上拟合孪生模型：%2</translation>
    </message>
    <message>
        <source>the twin does not model %1</source>
        <translation>孪生模型不模拟 %1</translation>
    </message>
    <message>
        <source>the twin predicts no SLO capacity at these loads</source>
        <translation>孪生模型预测在这些负载下没有 SLO 容量</translation>
    </message>
    <message>
        <source>the twin predicts no knee at these loads</source>
        <translation>孪生模型预测在这些负载下没有拐点</translation>
    </message>
    <message>
        <source>%1: cannot read: %2</source>
        <translation>%1：无法读取：%2</translation>
    </message>
    <message>
        <source>%1: not a JSON object: %2</source>
        <translation>%1：不是 JSON 对象：%2</translation>
    </message>
    <message>
        <source>%1: cannot move the unfinished attempt to %2</source>
        <translation>%1：无法把未完成的尝试移到 %2</translation>
    </message>
    <message>
        <source>--resume needs --out DIR, the server sweep to finish</source>
        <translation>--resume 需要 --out DIR，即要完成的服务器扫描</translation>
    </message>
    <message>
        <source>--out %1 already holds a group of runs (%2): add --resume to finish it, or choose a new directory</source>
        <translation>--out %1 已有一组运行（%2）：加 --resume 以完成它，或选择新目录</translation>
    </message>
    <message>
        <source>--out: cannot create %1</source>
        <translation>--out：无法创建 %1</translation>
    </message>
    <message>
        <source>%1 during the sweep; what was measured before is kept in %2</source>
        <translation>%1 发生在扫描期间；之前测得的结果保存在 %2</translation>
    </message>
    <message>
        <source>%1: the sweep did not finish (exit code %2)</source>
        <translation>%1：扫描未完成（退出码 %2）</translation>
    </message>
    <message>
        <source>%1: the sweep did not finish</source>
        <translation>%1：扫描未完成</translation>
    </message>
</context>
<context>
    <name>ShareGpt</name>
    <message>
        <source>a JSON array of conversations</source>
        <translation>由对话组成的 JSON 数组</translation>
    </message>
    <message>
        <source>conversation %1 to be an object</source>
        <translation>第 %1 个对话为对象</translation>
    </message>
    <message>
        <source>&quot;conversations&quot; of conversation %1 to be an array</source>
        <translation>第 %1 个对话的 &quot;conversations&quot; 为数组</translation>
    </message>
    <message>
        <source>turn %1 of conversation %2 to be an object</source>
        <translation>第 %2 个对话的第 %1 轮为对象</translation>
    </message>
    <message>
        <source>&quot;value&quot; of turn %1 of conversation %2 to be a string</source>
        <translation>第 %2 个对话第 %1 轮的 &quot;value&quot; 为字符串</translation>
    </message>
    <message>
        <source>something else</source>
        <translation>其他内容</translation>
    </message>
    <message>
        <source>byte %1: expected %2, found %3</source>
        <translation>第 %1 字节：应为%2，实际为 %3</translation>
    </message>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1：无法打开：%2</translation>
    </message>
    <message>
        <source>%1: read error at byte %2</source>
        <translation>%1：在第 %2 字节读取出错</translation>
    </message>
    <message>
        <source>%1: no usable conversations (%2 read)</source>
        <translation>%1：没有可用的对话（已读取 %2 个）</translation>
    </message>
    <message>
        <source>%1: %2 usable conversations for %3 requests: oversampled</source>
        <translation>%1：%3 个请求只有 %2 个可用对话：已重复采样</translation>
    </message>
    <message>
        <source>&quot;from&quot; of turn %1 of conversation %2 to be a string</source>
        <translation>对话 %2 第 %1 轮的 &quot;from&quot; 为字符串</translation>
    </message>
    <message>
        <source>%1: conversation %2 (ending at byte %3): %4</source>
        <translation>%1：对话 %2（结束于字节 %3）：%4</translation>
    </message>
    <message>
        <source>conversation %1 (ending at byte %2): %3</source>
        <translation>对话 %1（结束于字节 %2）：%3</translation>
    </message>
    <message>
        <source>turn %1 has the unknown role &quot;%2&quot;</source>
        <translation>第 %1 轮的角色 &quot;%2&quot; 未知</translation>
    </message>
    <message>
        <source>turn %1 is a system turn after the start</source>
        <translation>第 %1 轮是开头之后的系统轮次</translation>
    </message>
    <message>
        <source>turn %1 is an answer before any user turn</source>
        <translation>第 %1 轮是出现在任何用户轮次之前的回答</translation>
    </message>
    <message>
        <source>turns %1 and %2 are two answers in a row</source>
        <translation>第 %1 轮和第 %2 轮是连续两个回答</translation>
    </message>
    <message>
        <source>turns %1 and %2 are two user turns in a row</source>
        <translation>第 %1 轮和第 %2 轮是连续两个用户轮次</translation>
    </message>
    <message>
        <source>no user turn</source>
        <translation>没有用户轮次</translation>
    </message>
    <message>
        <source>%1: conversation %2</source>
        <translation>%1：对话 %2</translation>
    </message>
    <message>
        <source>%1: %2 more malformed conversations skipped</source>
        <translation>%1：另有 %2 个格式错误的对话被跳过</translation>
    </message>
    <message>
        <source>expected %1, found %2</source>
        <translation>应为 %1，实际为 %2</translation>
    </message>
    <message>
        <source>%1: the length filters cut %2 conversations short, leaving out %3 turns (conversation %4 kept %5 of its %6 turns): a turn&apos;s prompt carries the history before it, which counts toward max_prompt_len (%7) and max_total_len (%8); raise them or set filter_lengths to false to keep more turns</source>
        <translation>%1：长度过滤截短了 %2 个对话，去掉了 %3 个轮次（对话 %4 保留了其 %6 个轮次中的 %5 个）：每一轮的提示词都带有之前的历史，计入 max_prompt_len（%7）和 max_total_len（%8）；调高这两个值或把 filter_lengths 设为 false 可保留更多轮次</translation>
    </message>
</context>
<context>
    <name>SourceDocument</name>
    <message>
        <source>: duplicate key; the last one is used</source>
        <translation>：重复的键；使用最后一个</translation>
    </message>
    <message>
        <source>: arrays and objects nest deeper than %1 levels</source>
        <translation>：数组和对象的嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>number %1 is out of range (the largest is about 1.8e308)</source>
        <translation>数字 %1 超出范围（最大约为 1.8e308）</translation>
    </message>
</context>
<context>
    <name>Sweep</name>
    <message>
        <source>and %1 more</source>
        <translation>另有 %1 个</translation>
    </message>
    <message>
        <source>workload.model_mix: %1 not listed by %2 (it lists %3); their requests would fail</source>
        <translation>workload.model_mix：%2 没有列出 %1（它列出的是 %3）；发往它们的请求会失败</translation>
    </message>
    <message>
        <source>workload.input_len + output_len: a request of %1 tokens is over the max_model_len %2 that %3 reports; it would refuse the requests</source>
        <translation>workload.input_len + output_len：%1 个 token 的请求超过了 %3 报告的 max_model_len %2；服务器会拒绝这些请求</translation>
    </message>
    <message>
        <source>%1 of %2 prompts need more tokens (prompt and output, counted in words) than the max_model_len %3 that %4 reports; the server may refuse them</source>
        <translation>%2 个提示词中有 %1 个所需的 token 数（提示词加输出，按词计数）超过 %4 报告的 max_model_len %3；服务器可能会拒绝它们</translation>
    </message>
    <message>
        <source>workload.replay_speed: %1 spans %2 s; at replay_speed %3 one pass takes %4 s, above the limit of %5 s (ten days)</source>
        <translation>workload.replay_speed：%1 跨度为 %2 秒；以 replay_speed %3 回放一遍需要 %4 秒，超过 %5 秒（十天）的上限</translation>
    </message>
    <message>
        <source>images: %1 per request, %2 of data URLs in each (the first prompt&apos;s)</source>
        <translation>图像：每个请求 %1 张，每个请求的数据 URL 共 %2（按第一个提示词计）</translation>
    </message>
    <message>
        <source>; %1/s to send at the plan&apos;s highest rate, %2 req/s</source>
        <translation>；按计划的最高速率 %2 req/s，每秒需发送 %1</translation>
    </message>
</context>
<context>
    <name>SweepPlanner</name>
    <message>
        <source>one request at a time</source>
        <translation>一次一个请求</translation>
    </message>
    <message>
        <source>every request at once</source>
        <translation>全部请求一次发出</translation>
    </message>
    <message>
        <source>around the knee at %1, between %2 and %3</source>
        <translation>在拐点 %1 附近，介于 %2 和 %3 之间</translation>
    </message>
    <message>
        <source>every step met the SLO up to %1: looking higher</source>
        <translation>直到 %1 每一步都满足 SLO：向更高负载探索</translation>
    </message>
    <message>
        <source>no step met the SLO down to %1: looking lower</source>
        <translation>直到 %1 没有一步满足 SLO：向更低负载探索</translation>
    </message>
    <message>
        <source>SLO boundary between %1 and %2</source>
        <translation>SLO 边界介于 %1 和 %2 之间</translation>
    </message>
    <message>
        <source>between the floor (%1 req/s) and the ceiling (%2 req/s)</source>
        <translation>介于下限（%1 req/s）与上限（%2 req/s）之间</translation>
    </message>
    <message>
        <source>the synchronous step completed nothing: no floor to plan from</source>
        <translation>同步步骤没有完成任何请求：没有下限可供规划</translation>
    </message>
    <message>
        <source>repeat %1 of %2 of the highest load that met the SLO</source>
        <translation>满足 SLO 的最高负载的第 %1 次重复（共 %2 次）</translation>
    </message>
    <message>
        <source>the server collapsed: throughput fell for two steps in a row while latency rose (up to %1)</source>
        <translation>服务器崩溃：吞吐量连续两步下降而延迟上升（直到 %1）</translation>
    </message>
    <message>
        <source>errors passed the limit: %1% of requests failed at %2 (limit %3%)</source>
        <translation>错误超过上限：在 %2 时 %1% 的请求失败（上限 %3%）</translation>
    </message>
    <message>
        <source>the next step, %1, passes the limit of %2 concurrent requests: it and any higher ones were left out (allow high load to run them)</source>
        <translation>下一步 %1 超过了 %2 个并发请求的上限：该步及更高的负载已略去（允许高负载后才会运行）</translation>
    </message>
    <message>
        <source>the next step, %1, passes the limit of %2 req/s: it and any higher ones were left out (allow high load to run them)</source>
        <translation>下一步 %1 超过了 %2 req/s 的上限：该步及更高的负载已略去（允许高负载后才会运行）</translation>
    </message>
    <message>
        <source>repeat %1 of %2 of every load</source>
        <translation>每个负载的第 %1 次重复（共 %2 次）</translation>
    </message>
</context>
<context>
    <name>SweepRunner</name>
    <message>
        <source>the server did not empty its prefix cache (POST %1: %2); the steps run without resets</source>
        <translation>服务器未清空其前缀缓存（POST %1：%2）；各步骤将不再重置缓存</translation>
    </message>
</context>
<context>
    <name>TargetStore</name>
    <message>
        <source>a target needs a name</source>
        <translation>目标需要名称</translation>
    </message>
    <message>
        <source>target name &quot;%1&quot;: use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos; (starting with a letter or digit)</source>
        <translation>目标名称 &quot;%1&quot;：请使用字母、数字、&apos;.&apos;、&apos;_&apos; 和 &apos;-&apos;（以字母或数字开头）</translation>
    </message>
    <message>
        <source>expected an object with &quot;schema&quot; and &quot;targets&quot;</source>
        <translation>应为包含 &quot;schema&quot; 和 &quot;targets&quot; 的对象</translation>
    </message>
    <message>
        <source>targets: expected an array</source>
        <translation>targets：应为数组</translation>
    </message>
    <message>
        <source>%1: expected an object</source>
        <translation>%1：应为对象</translation>
    </message>
    <message>
        <source>cannot create the directory</source>
        <translation>无法创建目录</translation>
    </message>
    <message>
        <source>target &quot;%1&quot; is not among the saved targets in %2 (%3)</source>
        <translation>目标 &quot;%1&quot; 不在 %2 中已保存的目标里（%3）</translation>
    </message>
    <message>
        <source>it holds none; add one with &quot;kneepoint-cli targets add&quot;</source>
        <translation>其中没有目标；请用 &quot;kneepoint-cli targets add&quot; 添加</translation>
    </message>
    <message>
        <source>it holds: %1</source>
        <translation>其中有：%1</translation>
    </message>
</context>
<context>
    <name>TelemetryScraper</name>
    <message>
        <source>no Prometheus samples</source>
        <translation>没有 Prometheus 样本</translation>
    </message>
    <message>
        <source>none of vLLM&apos;s, SGLang&apos;s or TGI&apos;s metric names</source>
        <translation>没有 vLLM、SGLang 或 TGI 的指标名称</translation>
    </message>
    <message>
        <source>no server metrics (%1: %2); the sweep goes on without them</source>
        <translation>没有服务器指标（%1：%2）；扫描在没有它们的情况下继续</translation>
    </message>
    <message>
        <source>the metrics of %1 are longer than %2 MiB: each scrape is read up to there and the metrics after it are left out</source>
        <translation>%1 的指标超过 %2 MiB：每次抓取只读到该处，之后的指标被略去</translation>
    </message>
</context>
<context>
    <name>TokenizePrepass</name>
    <message>
        <source>no answer within %1 s</source>
        <translation>%1 秒内无应答</translation>
    </message>
    <message>
        <source>%1: %2; input tokens are the server&apos;s usage.prompt_tokens where it sends them, else the dataset&apos;s count</source>
        <translation>%1：%2；输入 token 数取服务器发送的 usage.prompt_tokens，没有时取数据集的计数</translation>
    </message>
    <message>
        <source>input tokens counted by the server&apos;s /tokenize (%1 prompts; %2 tokens against the dataset&apos;s %3, %4% apart)</source>
        <translation>输入 token 数由服务器的 /tokenize 计数（%1 个提示词；%2 个 token，数据集为 %3，相差 %4%）</translation>
    </message>
    <message>
        <source>%1 with Retry-After %2 s, past the pre-pass&apos;s limit of %3 s</source>
        <translation>%1，Retry-After 要求等待 %2 秒，超出 /tokenize 预处理的 %3 秒上限</translation>
    </message>
    <message>
        <source>%1 (tried %2 times)</source>
        <translation>%1（已尝试 %2 次）</translation>
    </message>
    <message>
        <source>input tokens counted by the server&apos;s /tokenize (%1 prompts; %2 tokens against the dataset&apos;s %3, %4% apart; requests sent again after a transient failure: %5, the last after %6)</source>
        <translation>输入 token 数由服务器的 /tokenize 计数（%1 个提示词；%2 个 token，数据集为 %3，相差 %4%；因临时故障重发的请求：%5 个，最后一次因 %6）</translation>
    </message>
    <message>
        <source>the prompts are conversations whose turns carry their history as it grows, so they are not counted before the run; input tokens are the server&apos;s usage.prompt_tokens where it sends them, else the dataset&apos;s count</source>
        <translation>提示词是多轮对话，每一轮都携带不断增长的历史，因此不在运行前计数；输入 token 数取服务器发送的 usage.prompt_tokens，否则取数据集的计数</translation>
    </message>
    <message>
        <source>the trace&apos;s prompts are made from their hash ids as they are sent, so they are not counted before the run; input tokens are the server&apos;s usage.prompt_tokens where it sends them, else the trace&apos;s input_length</source>
        <translation>轨迹的提示词在发送时由其 hash id 生成，因此不在运行前计数；输入 token 数取服务器发送的 usage.prompt_tokens，否则取轨迹的 input_length</translation>
    </message>
    <message>
        <source>the prompts are made as each request is sent, so /tokenize cannot count them before the run; input tokens are the server&apos;s usage.prompt_tokens where it sends them, else the dataset&apos;s count</source>
        <translation>提示词在发送每个请求时才生成，因此 /tokenize 无法在运行前计数；输入 token 取服务器发送的 usage.prompt_tokens，否则取数据集的计数</translation>
    </message>
    <message>
        <source>input tokens counted by the server&apos;s /tokenize (%1 prompt; %2 tokens against the dataset&apos;s %3, %4% apart)</source>
        <translation>输入 token 数由服务器的 /tokenize 计数（%1 个提示词；%2 个 token，数据集为 %3，相差 %4%）</translation>
    </message>
    <message>
        <source>input tokens counted by the server&apos;s /tokenize (%1 prompt; %2 tokens against the dataset&apos;s %3, %4% apart; requests sent again after a transient failure: %5, the last after %6)</source>
        <translation>输入 token 数由服务器的 /tokenize 计数（%1 个提示词；%2 个 token，数据集为 %3，相差 %4%；因临时故障重发的请求：%5 个，最后一次因 %6）</translation>
    </message>
</context>
<context>
    <name>Twin</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The twin&apos;s throughput misses the measured by more than %1% at %2: its forecasts of throughput near those loads are no closer.</source>
        <translation>孪生模型的吞吐量在 %2 与实测相差超过 %1%：它对这些负载附近吞吐量的预测也不会更准。</translation>
    </message>
    <message>
        <source>The twin&apos;s P99 TTFT misses the measured one&apos;s 95% interval (from the step&apos;s requests) by more than %1% at %2: its forecasts of the tail near those loads are no closer.</source>
        <translation>孪生模型的 P99 TTFT 在 %2 与实测值的 95% 区间（由该步的请求得出）相差超过 %1%：它对这些负载附近尾部延迟的预测也不会更准。</translation>
    </message>
    <message>
        <source>The twin&apos;s P99 TTFT misses the measured by more than %1% at %2: its forecasts of the tail near those loads are no closer.</source>
        <translation>孪生模型的 P99 TTFT 在 %2 与实测相差超过 %1%：它对这些负载附近尾部延迟的预测也不会更准。</translation>
    </message>
    <message>
        <source>The measured steps put the knee at %1, the twin&apos;s figures for them at %2: its forecast of where latency turns is that far off.</source>
        <translation>实测各步的拐点在 %1，孪生模型对这些步的结果则在 %2：它对延迟转折位置的预测相差同样多。</translation>
    </message>
    <message>
        <source>The measured steps saturate at %1, the twin&apos;s figures for them at %2.</source>
        <translation>实测各步在 %1 饱和，孪生模型对这些步的结果则在 %2。</translation>
    </message>
</context>
<context>
    <name>kp::ui::ChartSet</name>
    <message>
        <source>Throughput against offered load</source>
        <translation>吞吐量与施加负载</translation>
    </message>
    <message>
        <source>Load–latency · %1 and P50 %2</source>
        <translation>负载–延迟 · %1 与 P50 %2</translation>
    </message>
    <message>
        <source>knee</source>
        <translation>拐点</translation>
    </message>
    <message>
        <source>SLO capacity</source>
        <translation>SLO 容量</translation>
    </message>
    <message>
        <source>Load–latency · %1: every request failed</source>
        <translation>负载–延迟 · %1：所有请求均失败</translation>
    </message>
    <message>
        <source>Load–latency · P50 %1 (the run has no %2)</source>
        <translation>负载–延迟 · P50 %1（该运行没有 %2）</translation>
    </message>
    <message>
        <source>Load–latency · %1 and P50 %2 (the run has no %3)</source>
        <translation>负载–延迟 · %1 与 P50 %2（该运行没有 %3）</translation>
    </message>
    <message>
        <source>Prefix-cache hit rate against offered load</source>
        <translation>前缀缓存命中率与施加负载</translation>
    </message>
    <message>
        <source>server: its /metrics prefix-cache figures</source>
        <translation>服务器：其 /metrics 中的前缀缓存数据</translation>
    </message>
    <message>
        <source>client: cached tokens the responses reported, over input tokens</source>
        <translation>客户端：响应报告的缓存 token 占输入 token 的比例</translation>
    </message>
    <message>
        <source>Interactivity against throughput: the Pareto front</source>
        <translation>交互性与吞吐量：帕累托前沿</translation>
    </message>
    <message>
        <source>on the front: %1 %2</source>
        <translation>前沿上：%1 %2</translation>
    </message>
    <message>
        <source>%1 of %2 steps on the front</source>
        <translation>%2 步中有 %1 步在前沿上</translation>
    </message>
    <message>
        <source>%1 GPUs (%2)</source>
        <translation>%1 块 GPU（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) left off (no TPOT, cut short, or errors over 5%)</source>
        <translation>
            <numerusform>%n 步未计入（无 TPOT、被中断或错误超过 5%）</numerusform>
        </translation>
    </message>
    <message>
        <source>per user: 1000 / median TPOT</source>
        <translation>每用户：1000 / TPOT 中位数</translation>
    </message>
    <message>
        <source>GPU utilisation and memory against offered load</source>
        <translation>GPU 利用率与显存随施加负载的变化</translation>
    </message>
    <message>
        <source>%1 GPUs</source>
        <translation>%1 块 GPU</translation>
    </message>
    <message>
        <source>utilisation: mean over the GPUs; memory: the fullest GPU</source>
        <translation>利用率：各 GPU 的平均值；显存：占用最多的那块 GPU</translation>
    </message>
    <message>
        <source>%1 (predicted)</source>
        <translation>%1（预测）</translation>
    </message>
    <message>
        <source>Where TTFT goes against offered load</source>
        <translation>TTFT 的构成随施加负载的变化</translation>
    </message>
    <message>
        <source>means per step: queue, prefill and decode from the server&apos;s histograms; client = the client&apos;s mean TTFT less queue and prefill (network, new connections, the client)</source>
        <translation>每步均值：排队、预填充和解码来自服务器的直方图；客户端 = 客户端平均 TTFT 减去排队和预填充（网络、新连接、客户端）</translation>
    </message>
</context>
<context>
    <name>kp::ui::CompareChart</name>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Output throughput</source>
        <translation>输出吞吐量</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2（%3）</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>Users (concurrency)</source>
        <translation>用户数（并发）</translation>
    </message>
    <message>
        <source>Offered load (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
    <message>
        <source>Select two or more runs on the Runs page and press Compare.</source>
        <translation>在“运行记录”页选择两个或更多运行，然后点击“对比”。</translation>
    </message>
    <message>
        <source>Prefix-cache hit rate</source>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <source>No prefix-cache figures in these runs: their servers reported no cached tokens.</source>
        <translation>这些运行没有前缀缓存数据：其服务器未报告缓存的 token。</translation>
    </message>
    <message>
        <source>None of these runs records %1.</source>
        <translation>这些运行都没有记录 %1。</translation>
    </message>
    <message>
        <source>%1 (predicted)</source>
        <translation>%1（预测）</translation>
    </message>
    <message>
        <source>%1 · twin, error %2</source>
        <translation>%1 · 孪生模型，误差 %2</translation>
    </message>
</context>
<context>
    <name>kp::ui::CompareReport</name>
    <message>
        <source>Kneepoint comparison: %1</source>
        <translation>Kneepoint 对比：%1</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Knee</source>
        <translation>拐点</translation>
    </message>
    <message>
        <source>Throughput knee</source>
        <translation>吞吐量拐点</translation>
    </message>
    <message>
        <source>Saturation</source>
        <translation>饱和</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>吞吐崩溃</translation>
    </message>
    <message>
        <source>SLO capacity</source>
        <translation>SLO 容量</translation>
    </message>
    <message>
        <source>Recommended</source>
        <translation>推荐工作点</translation>
    </message>
    <message>
        <source>Peak throughput (req/s)</source>
        <translation>峰值吞吐量 (req/s)</translation>
    </message>
    <message>
        <source>Offered</source>
        <translation>施加负载</translation>
    </message>
    <message>
        <source>Value (%1)</source>
        <translation>数值（%1）</translation>
    </message>
    <message>
        <source>Baseline (%1)</source>
        <translation>基线（%1）</translation>
    </message>
    <message>
        <source>Δ</source>
        <translation>Δ</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>baseline interpolated</source>
        <translation>基线为插值</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Baseline: %1. Deltas are at equal offered load; where the baseline has no step at a load, its value is interpolated between its two neighbouring steps (never extrapolated).</source>
        <translation>基线：%1。差值在相同施加负载下比较；基线在某负载没有步骤时，其数值由相邻两步插值得出（从不外推）。</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Comparison · %1</source>
        <translation>对比 · %1</translation>
    </message>
    <message>
        <source>▲ marks each run&apos;s knee. The baseline&apos;s line is the thicker one.</source>
        <translation>▲ 标出每个运行的拐点。较粗的线是基线。</translation>
    </message>
    <message>
        <source>Knee and capacity</source>
        <translation>拐点与容量</translation>
    </message>
    <message>
        <source>Deltas against %1</source>
        <translation>相对 %1 的差值</translation>
    </message>
    <message>
        <source>No run has a load within the baseline&apos;s range.</source>
        <translation>没有运行的负载落在基线范围内。</translation>
    </message>
    <message>
        <source>What differs</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>The runs&apos; profiles and environments are the same.</source>
        <translation>这些运行的配置和环境相同。</translation>
    </message>
    <message>
        <source>Interactivity against throughput: the Pareto fronts</source>
        <translation>交互性与吞吐量：帕累托前沿</translation>
    </message>
    <message>
        <source>Large dots joined by a line: the steps no other step of the run beats on both output tok/s per user (1000 / median TPOT) and %1.</source>
        <translation>以线相连的大圆点：在每用户输出 tok/s（1000 / TPOT 中位数）和%1两方面都没有被该运行的其他步骤超过的步骤。</translation>
    </message>
    <message>
        <source>%1 (predicted)</source>
        <translation>%1（预测）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Dashed lines are a twin&apos;s predictions, not measurements.</source>
        <translation>虚线是数字孪生的预测，并非实测。</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>Peak req/s</source>
        <translation>峰值 req/s</translation>
    </message>
    <message>
        <source>Best tok/s per GPU</source>
        <translation>每 GPU 最佳 tok/s</translation>
    </message>
    <message>
        <source>Best tok/s</source>
        <translation>最佳 tok/s</translation>
    </message>
    <message>
        <source>On the group&apos;s front</source>
        <translation>位于该组的前沿</translation>
    </message>
    <message>
        <source>Twin: SLO capacity</source>
        <translation>孪生模型：SLO 容量</translation>
    </message>
    <message>
        <source>Twin: knee</source>
        <translation>孪生模型：拐点</translation>
    </message>
    <message>
        <source>Twin error</source>
        <translation>孪生模型误差</translation>
    </message>
    <message>
        <source>users</source>
        <translation>并发</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>req/s</translation>
    </message>
    <message>
        <source>%1, best</source>
        <translation>%1，最佳</translation>
    </message>
    <message>
        <source>fitted here</source>
        <translation>在此拟合</translation>
    </message>
    <message>
        <source>Server configurations</source>
        <translation>服务器配置</translation>
    </message>
    <message>
        <source>The twin fitted on %1 was set to each other configuration&apos;s parameters and run at its loads; its curves are dashed beside the measured ones, and its error is the predicted figure against the measured one.</source>
        <translation>在 %1 上拟合的孪生模型被设为其他每个配置的参数，并在其负载下运行；其曲线以虚线画在测量曲线旁，误差为预测值相对测量值的偏差。</translation>
    </message>
    <message>
        <source>No twin check: %1.</source>
        <translation>无孪生模型校验：%1。</translation>
    </message>
</context>
<context>
    <name>kp::ui::CompareView</name>
    <message>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>What the curves show against the offered load</source>
        <translation>曲线随施加负载显示的指标</translation>
    </message>
    <message>
        <source>The latency statistic; a step that did not record it has no point</source>
        <translation>延迟统计量；没有记录该值的步骤不显示点</translation>
    </message>
    <message>
        <source>The run the others are measured against</source>
        <translation>其他运行与之比较的基准运行</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Chart as PNG, SVG or PDF…</source>
        <translation>图表导出为 PNG、SVG 或 PDF…</translation>
    </message>
    <message>
        <source>Copy chart</source>
        <translation>复制图表</translation>
    </message>
    <message>
        <source>Comparison report…</source>
        <translation>对比报告…</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Deltas</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Knee and capacity</source>
        <translation>拐点与容量</translation>
    </message>
    <message>
        <source>What differs</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Comparison · %1</source>
        <translation>对比 · %1</translation>
    </message>
    <message>
        <source>Select two or more runs on the Runs page and press Compare.</source>
        <translation>在“运行记录”页选择两个或更多运行，然后点击“对比”。</translation>
    </message>
    <message>
        <source>What differs (%1)</source>
        <translation>差异（%1）</translation>
    </message>
    <message>
        <source>%1 runs; deltas against %2 at equal offered load (interpolated between the baseline&apos;s steps, never extrapolated).</source>
        <translation>%1 个运行；在相同施加负载下相对 %2 的差值（在基线的步骤之间插值，从不外推）。</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PNG image at 2× (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;2× PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Comparison report</source>
        <translation>对比报告</translation>
    </message>
    <message>
        <source>HTML, self-contained (*.html);;Markdown with PNG charts (*.md);;PDF (*.pdf);;CSV (*.csv);;JSON (*.json)</source>
        <translation>HTML，独立文件 (*.html);;Markdown 及 PNG 图表 (*.md);;PDF (*.pdf);;CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>Output tok/s per user against per GPU, one front per run</source>
        <translation>每用户输出 tok/s 与每 GPU 输出 tok/s，每个运行一条前沿</translation>
    </message>
    <message>
        <source>No run has a step to place: steps need answers of two tokens or more (for TPOT), every request ended, and errors under 5%.</source>
        <translation>没有运行有可绘制的步骤：步骤需要两个及以上 token 的回答（用于 TPOT）、所有请求均已结束，且错误低于 5%。</translation>
    </message>
    <message>
        <source>Configurations</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>The server sweep&apos;s configurations: knee, SLO capacity, per GPU, the Pareto front and the twin&apos;s check</source>
        <translation>服务器扫描的各配置：拐点、SLO 容量、每 GPU、帕累托前沿和孪生模型校验</translation>
    </message>
    <message>
        <source> Dashed: the twin fitted on %1, set to each other configuration.</source>
        <translation> 虚线：在 %1 上拟合的孪生模型，设为其他每个配置。</translation>
    </message>
</context>
<context>
    <name>kp::ui::ConnectionTest</name>
    <message>
        <source>Health</source>
        <translation>健康检查</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型列表</translation>
    </message>
    <message>
        <source>Completion</source>
        <translation>补全</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Checks /health, /v1/models and one tiny completion against the target</source>
        <translation>对目标检查 /health、/v1/models 并发送一个很小的补全请求</translation>
    </message>
    <message>
        <source>Not tested yet.</source>
        <translation>尚未测试。</translation>
    </message>
    <message>
        <source>Cancel test</source>
        <translation>取消测试</translation>
    </message>
    <message>
        <source>Test cancelled.</source>
        <translation>测试已取消。</translation>
    </message>
    <message>
        <source>The built-in simulator was started for the test (%1).</source>
        <translation>已为测试启动内置模拟器（%1）。</translation>
    </message>
    <message>
        <source>Testing %1 …</source>
        <translation>正在测试 %1 …</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Hint: %1</source>
        <translation>提示：%1</translation>
    </message>
    <message>
        <source>All checks passed (%1).</source>
        <translation>所有检查均通过（%1）。</translation>
    </message>
    <message>
        <source>The server answered, but a check failed (%1).</source>
        <translation>服务器有响应，但有一项检查失败（%1）。</translation>
    </message>
    <message>
        <source>The server could not be reached (%1).</source>
        <translation>无法连接服务器（%1）。</translation>
    </message>
    <message>
        <source>Reading the API key</source>
        <translation>正在读取 API 密钥</translation>
    </message>
</context>
<context>
    <name>kp::ui::ErrorsModel</name>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <source>Host not found</source>
        <translation>找不到主机</translation>
    </message>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>Connect timeout</source>
        <translation>连接超时</translation>
    </message>
    <message>
        <source>First-token timeout</source>
        <translation>首 token 超时</translation>
    </message>
    <message>
        <source>Idle timeout</source>
        <translation>空闲超时</translation>
    </message>
    <message>
        <source>Total timeout</source>
        <translation>总超时</translation>
    </message>
    <message>
        <source>HTTP 401/403 (auth)</source>
        <translation>HTTP 401/403（认证）</translation>
    </message>
    <message>
        <source>HTTP 404 (not found)</source>
        <translation>HTTP 404（未找到）</translation>
    </message>
    <message>
        <source>HTTP 429 (rate limited)</source>
        <translation>HTTP 429（限流）</translation>
    </message>
    <message>
        <source>HTTP 5xx (server error)</source>
        <translation>HTTP 5xx（服务器错误）</translation>
    </message>
    <message>
        <source>Other HTTP status</source>
        <translation>其他 HTTP 状态</translation>
    </message>
    <message>
        <source>Error in the response body</source>
        <translation>响应体中的错误</translation>
    </message>
    <message>
        <source>Malformed stream</source>
        <translation>流格式错误</translation>
    </message>
    <message>
        <source>Stream without choices</source>
        <translation>流中没有 choices</translation>
    </message>
    <message>
        <source>Stream cut</source>
        <translation>流被截断</translation>
    </message>
    <message>
        <source>Network error</source>
        <translation>网络错误</translation>
    </message>
    <message>
        <source>Response too large</source>
        <translation>响应过大</translation>
    </message>
    <message>
        <source>Cancelled (stopped)</source>
        <translation>已取消（停止）</translation>
    </message>
    <message>
        <source>Failure</source>
        <translation>失败类型</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Example message</source>
        <translation>示例消息</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>处理建议</translation>
    </message>
    <message>
        <source>%1 (HTTP %2)</source>
        <comment>a failure class, then the HTTP status of its requests</comment>
        <translation>%1（HTTP %2）</translation>
    </message>
</context>
<context>
    <name>kp::ui::Forecaster</name>
    <message>
        <source>Step %1 at %2: forecast %3 req/s, measured %4 req/s (%5)</source>
        <translation>第 %1 步（%2）：预测 %3 req/s，实测 %4 req/s（%5）</translation>
    </message>
    <message>
        <source>; %1 forecast %2 ms, measured %3 ms (%4)</source>
        <translation>；%1 预测 %2 ms，实测 %3 ms（%4）</translation>
    </message>
    <message>
        <source> (forecast from %1)</source>
        <translation>（基于 %1 的预测）</translation>
    </message>
    <message>
        <source>Forecast: after 1 more finished step; the twin needs %1 to fit</source>
        <translation>预测：还需完成 1 步；数字孪生需要 %1 步才能拟合</translation>
    </message>
    <message>
        <source>Forecast: after %1 more finished steps; the twin needs %2 to fit</source>
        <translation>预测：还需完成 %1 步；数字孪生需要 %2 步才能拟合</translation>
    </message>
    <message>
        <source>Fitting the forecast</source>
        <translation>正在拟合预测</translation>
    </message>
    <message>
        <source>Forecast from %1 refused: %2</source>
        <translation>基于 %1 的预测被拒绝：%2</translation>
    </message>
    <message>
        <source>Forecast: fitting the twin to %1…</source>
        <translation>预测：正在用 %1 拟合数字孪生…</translation>
    </message>
    <message>
        <source>knee at about %1 %2</source>
        <translation>拐点约在 %1 %2</translation>
    </message>
    <message>
        <source>no knee within %1 %2</source>
        <translation>%1 %2 以内没有拐点</translation>
    </message>
    <message>
        <source>SLO capacity %1about %2 %3</source>
        <translation>SLO 容量%1约 %2 %3</translation>
    </message>
    <message>
        <source>Forecast: %1 (predicted from %2)</source>
        <translation>预测：%1（由 %2 预测）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Forecast: the dashed curve extends the measured one (predicted from %1)</source>
        <translation>预测：虚线曲线延伸了实测曲线（由 %1 预测）</translation>
    </message>
</context>
<context>
    <name>kp::ui::GanttChart</name>
    <message>
        <source>Requests of one second</source>
        <translation>某一秒的请求</translation>
    </message>
    <message>
        <source>waiting to be sent</source>
        <translation>等待发送</translation>
    </message>
    <message>
        <source>waiting for the first token</source>
        <translation>等待首个 token</translation>
    </message>
    <message>
        <source>streaming</source>
        <translation>流式输出</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Time in step (s)</source>
        <translation>步内时间 (s)</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Second</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>The second of the step whose scheduled requests are drawn (click the timeline to pick one)</source>
        <translation>绘制该步中在这一秒计划发送的请求（在时间线上点击即可选择）</translation>
    </message>
    <message>
        <source>Step %1 · %2 · requests scheduled in second %3</source>
        <translation>第 %1 步 · %2 · 第 %3 秒计划发送的请求</translation>
    </message>
    <message>
        <source>Select a finished step, then a second of its timeline.</source>
        <translation>请选择一个已完成的步，再选择其时间线上的一秒。</translation>
    </message>
    <message>
        <source>Step %1 has no request records to draw.</source>
        <translation>第 %1 步没有可绘制的请求记录。</translation>
    </message>
    <message>
        <source>No request was scheduled in second %1 of step %2.</source>
        <translation>第 %2 步的第 %1 秒没有计划发送的请求。</translation>
    </message>
    <message>
        <source>(the first %1 of %2)</source>
        <translation>（%2 个中的前 %1 个）</translation>
    </message>
    <message>
        <source>Step %1 has no timeline: %2.</source>
        <translation>第 %1 步没有时间线：%2。</translation>
    </message>
</context>
<context>
    <name>kp::ui::GpuChart</name>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>utilisation %</source>
        <translation>利用率 %</translation>
    </message>
    <message>
        <source>memory used (GiB)</source>
        <translation>已用显存 (GiB)</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>GPU utilisation and memory against the offered load, as steps finish.</source>
        <translation>各步骤完成后，在此显示 GPU 利用率与显存随施加负载的变化。</translation>
    </message>
    <message>
        <source>No GPU figures: add a DCGM or AMD exporter URL to target.metrics_urls, or run the simulator with --gpus N.</source>
        <translation>没有 GPU 数据：请将 DCGM 或 AMD 导出器的 URL 加入 target.metrics_urls，或以 --gpus N 运行模拟器。</translation>
    </message>
</context>
<context>
    <name>kp::ui::HistogramChart</name>
    <message>
        <source>Latency histogram</source>
        <translation>延迟直方图</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1 (ms)</translation>
    </message>
    <message>
        <source>P50</source>
        <translation>P50</translation>
    </message>
    <message>
        <source>requests (%1 beyond the axis)</source>
        <translation>请求数（%1 个超出坐标轴）</translation>
    </message>
    <message>
        <source>Select a step to see its latency distribution.</source>
        <translation>选择一个步骤以查看其延迟分布。</translation>
    </message>
    <message>
        <source>Step %1 has no %2 values.</source>
        <translation>第 %1 步没有 %2 数值。</translation>
    </message>
</context>
<context>
    <name>kp::ui::LiveRun</name>
    <message>
        <source>1 step</source>
        <translation>1 步</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 步</translation>
    </message>
    <message>
        <source>Opened the run in %1</source>
        <translation>已打开 %1 中的运行记录</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Pausing after this step</source>
        <translation>本步结束后暂停</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Sweep of %1 against %2: %3%4</source>
        <translation>扫描 %1，目标 %2：%3%4</translation>
    </message>
    <message>
        <source>, then as the plan decides</source>
        <translation>，之后由计划决定</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>1 request</source>
        <translation>1 个请求</translation>
    </message>
    <message>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 个失败</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>client-bound (dispatch lag P99 %1 ms)</source>
        <translation>受客户端限制（发送延迟 P99 %1 ms）</translation>
    </message>
    <message>
        <source>SLO not met: %1</source>
        <translation>未满足 SLO：%1</translation>
    </message>
    <message>
        <source>Step %1 done: %2 → %3 req/s, %4 tok/s, P%5 TTFT %6 ms%7</source>
        <translation>第 %1 步完成：%2 → %3 req/s，%4 tok/s，P%5 TTFT %6 ms%7</translation>
    </message>
    <message>
        <source>Paused between steps</source>
        <translation>已在两步之间暂停</translation>
    </message>
    <message>
        <source>Resumed</source>
        <translation>已继续</translation>
    </message>
    <message>
        <source>Stopped escalating: %1</source>
        <translation>已停止加压：%1</translation>
    </message>
    <message>
        <source>Stopped: %1 kept</source>
        <translation>已停止：保留 %1</translation>
    </message>
    <message>
        <source>Sweep finished: %1</source>
        <translation>扫描完成：%1</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Stopping: the current step ends as partial</source>
        <translation>正在停止：当前步骤将以不完整结束</translation>
    </message>
    <message>
        <source>Pause cancelled</source>
        <translation>已取消暂停</translation>
    </message>
    <message>
        <source>between %1 and %2</source>
        <translation>在 %1 与 %2 之间</translation>
    </message>
    <message>
        <source>repeat of step %1</source>
        <translation>重复第 %1 步</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>why a step runs: its purpose, then in detail</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Step %1 started: %2, %3 (%4)</source>
        <translation>第 %1 步开始：%2，%3（%4）</translation>
    </message>
    <message>
        <source>; %1</source>
        <comment>notes after a finished step</comment>
        <translation>；%1</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Window %1 (%2–%3 s)%4: %5 req/s, %6 failed, TTFT P99 %7 ms</source>
        <translation>窗口 %1（%2–%3 秒）%4：%5 req/s，%6 个失败，TTFT P99 %7 ms</translation>
    </message>
    <message>
        <source>, partial</source>
        <translation>，不完整</translation>
    </message>
</context>
<context>
    <name>kp::ui::LiveStepChart</name>
    <message>
        <source>Current step</source>
        <translation>当前步骤</translation>
    </message>
    <message>
        <source>TTFT per request</source>
        <translation>每个请求的 TTFT</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>SLO</source>
        <translation>SLO</translation>
    </message>
    <message>
        <source>Time in step (s)</source>
        <translation>步内时间 (s)</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>TTFT (ms)</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>进行中的请求</translation>
    </message>
    <message>
        <source>Current step: %1 · %2</source>
        <translation>当前步骤：%1 · %2</translation>
    </message>
    <message>
        <source>Last step: %1 · %2</source>
        <translation>上一步：%1 · %2</translation>
    </message>
    <message>
        <source>Warming up…</source>
        <translation>预热中…</translation>
    </message>
    <message>
        <source>Waiting for the first requests…</source>
        <translation>等待第一批请求…</translation>
    </message>
    <message>
        <source>Per-request TTFT and requests in flight of the step that runs.</source>
        <translation>正在运行的步骤中每个请求的 TTFT 与进行中的请求数。</translation>
    </message>
</context>
<context>
    <name>kp::ui::LoadLatencyChart</name>
    <message>
        <source>Load–latency</source>
        <translation>负载–延迟</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>Latency shown on the y axis</source>
        <translation>y 轴显示的延迟</translation>
    </message>
    <message>
        <source>Logarithmic latency axis: the knee and the overload stay readable together</source>
        <translation>对数延迟轴：拐点和过载区可以同时看清</translation>
    </message>
    <message>
        <source>SLO</source>
        <translation>SLO</translation>
    </message>
    <message>
        <source>knee</source>
        <translation>拐点</translation>
    </message>
    <message>
        <source>SLO capacity</source>
        <translation>SLO 容量</translation>
    </message>
    <message>
        <source>P50 %1</source>
        <translation>P50 %1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Users (concurrency)</source>
        <translation>用户数（并发）</translation>
    </message>
    <message>
        <source>Offered load (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
    <message>
        <source>%1 (ms, log scale)</source>
        <translation>%1（ms，对数坐标）</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1 (ms)</translation>
    </message>
    <message>
        <source>SLO %1 %2 ≤ %3 ms</source>
        <translation>SLO %1 %2 ≤ %3 ms</translation>
    </message>
    <message>
        <source>Shaded: %1</source>
        <translation>阴影：%1</translation>
    </message>
    <message>
        <source>The SLO (%1 ms) is far above the curve: the log scale shows both.</source>
        <translation>SLO（%1 ms）远高于曲线：使用对数坐标可同时显示两者。</translation>
    </message>
    <message>
        <source>No step has a finite offered load with %1 values to plot.</source>
        <translation>没有可绘制的步骤：需要有限的施加负载和 %1 数值。</translation>
    </message>
    <message>
        <source>The curve appears here as steps finish.</source>
        <translation>各步完成后曲线会显示在这里。</translation>
    </message>
    <message>
        <source>Run a sweep (Ctrl+R): offered load against latency, with the knee and the SLO capacity marked as the steps finish.</source>
        <translation>运行扫描（Ctrl+R）：显示施加负载与延迟的关系，随着各步完成标出拐点和 SLO 容量。</translation>
    </message>
    <message>
        <source>Step %1 · %2
P50 %3 %4 ms</source>
        <translation>第 %1 步 · %2
P50 %3 %4 ms</translation>
    </message>
    <message>
        <source> · %1 %2 ms</source>
        <translation> · %1 %2 ms</translation>
    </message>
    <message>
        <source>No step has %1 %2: the curve shows %3, the highest percentile the run has.</source>
        <translation>没有步骤包含 %1 %2：曲线显示 %3，即该运行拥有的最高百分位。</translation>
    </message>
    <message>
        <source>Every request failed: no step has a %1 to plot.</source>
        <translation>所有请求均失败：没有步骤有可绘制的 %1。</translation>
    </message>
    <message>
        <source>Bars: each step&apos;s 95% confidence interval of %1 %2.</source>
        <translation>误差线：每个步骤 %1 %2 的 95% 置信区间。</translation>
    </message>
    <message>
        <source>Bars: the 95% confidence interval of %1 %2 over a repeated load&apos;s trials (the line joins their means), else over one step&apos;s requests.</source>
        <translation>误差线：重复负载时为各次试验的 %1 %2 的 95% 置信区间（折线连接其均值），否则为单步请求的置信区间。</translation>
    </message>
    <message>
        <source>Time to first content token: the first answer token, after a reasoning model&apos;s thinking</source>
        <translation>首个内容 token 时间：推理模型思考之后的第一个回答 token</translation>
    </message>
    <message>
        <source>forecast (predicted) %1 %2</source>
        <translation>预测（推算）%1 %2</translation>
    </message>
    <message>
        <source>forecast spread (predicted)</source>
        <translation>预测范围（推算）</translation>
    </message>
    <message>
        <source>Forecast (predicted, not measured) at %1
%2 req/s served</source>
        <translation>%1 处的预测（推算，非实测）
完成 %2 req/s</translation>
    </message>
    <message>
        <source>
%1 %2 ms</source>
        <translation>
%1 %2 ms</translation>
    </message>
    <message>
        <source> (spread %1–%2 ms)</source>
        <translation>（范围 %1–%2 ms）</translation>
    </message>
    <message>
        <source>
fitted to %1</source>
        <translation>
拟合自 %1</translation>
    </message>
    <message>
        <source>left out: partial, client-bound or outlier</source>
        <translation>未计入：不完整、受客户端限制或离群点</translation>
    </message>
</context>
<context>
    <name>kp::ui::MainWindow</name>
    <message>
        <source>built-in simulator</source>
        <translation>内置模拟器</translation>
    </message>
    <message>
        <source>built-in simulator (%1)</source>
        <translation>内置模拟器（%1）</translation>
    </message>
    <message>
        <source>&amp;Run sweep</source>
        <translation>运行扫描(&amp;R)</translation>
    </message>
    <message>
        <source>Sweep the profile&apos;s loads against its target (Ctrl+R)</source>
        <translation>按配置中的负载对目标执行扫描（Ctrl+R）</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>End the sweep now; finished steps are kept (Esc)</source>
        <translation>立即结束扫描；已完成的步骤会保留（Esc）</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Save profile</source>
        <translation>保存配置(&amp;S)</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Edit the profile, test the connection, preview the plan (Ctrl+1)</source>
        <translation>编辑配置、测试连接、预览计划（Ctrl+1）</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>The sweep: charts, steps, analysis, errors and log (Ctrl+2)</source>
        <translation>扫描：图表、步骤、分析、错误和日志（Ctrl+2）</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Sweep</source>
        <translation>扫描(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Kneepoint</source>
        <translation>关于 Kneepoint(&amp;A)</translation>
    </message>
    <message>
        <source>About Kneepoint</source>
        <translation>关于 Kneepoint</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Kneepoint %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Interactive load testing of LLM inference servers: sweep the offered load, watch the latency curve form and find the knee.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Kneepoint %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;LLM 推理服务器的交互式压测工具：逐步扫描施加负载，观察延迟曲线的形成并找到拐点。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The language changes when Kneepoint starts the next time.</source>
        <translation>语言将在下次启动 Kneepoint 时生效。</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>The profile has errors: the editor shows them at their fields.</source>
        <translation>配置有错误：编辑器在对应字段处显示了错误。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Go on with the sweep</source>
        <translation>继续扫描</translation>
    </message>
    <message>
        <source>Hold the sweep after the current step</source>
        <translation>当前步骤结束后暂停扫描</translation>
    </message>
    <message>
        <source>Profile: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>配置：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Target: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <source>Kneepoint</source>
        <translation>Kneepoint</translation>
    </message>
    <message>
        <source>Kneepoint — %1[*]</source>
        <translation>Kneepoint — %1[*]</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <source>Saved runs: open, rename, tag, annotate, delete, compare (Ctrl+3)</source>
        <translation>已保存的运行：打开、重命名、打标签、备注、删除、对比（Ctrl+3）</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>The runs chosen on the Runs page, overlaid, with deltas (Ctrl+4)</source>
        <translation>在“运行记录”页选中的运行叠加显示，并给出差值（Ctrl+4）</translation>
    </message>
    <message>
        <source>A sweep is running: stop it to open a saved run in the results view.</source>
        <translation>扫描正在运行：请先停止，才能在结果视图中打开已保存的运行。</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Opened %1 with warnings: %2</source>
        <translation>已打开 %1，有警告：%2</translation>
    </message>
    <message>
        <source>Import failed: %1</source>
        <translation>导入失败：%1</translation>
    </message>
    <message>
        <source>Imported %1 steps from %2 result files as %3%4</source>
        <translation>已从 %2 个结果文件导入 %1 步，保存为 %3%4</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>System language (%1)</source>
        <translation>系统语言（%1）</translation>
    </message>
    <message numerus="yes">
        <source>Matrix finished: %n run(s), tagged %1.</source>
        <translation>
            <numerusform>矩阵运行完成：%n 个运行，标签 %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Matrix ended early: %n run(s) finished, tagged %1.</source>
        <translation>
            <numerusform>矩阵运行提前结束：已完成 %n 个运行，标签 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>目标列表</translation>
    </message>
    <message>
        <source>Saved targets: endpoints that profiles refer to by name (Ctrl+5)</source>
        <translation>已保存的目标：配置按名称引用的端点（Ctrl+5）</translation>
    </message>
    <message>
        <source>Run against &amp;targets…</source>
        <translation>对多个目标运行(&amp;T)…</translation>
    </message>
    <message>
        <source>Sweep the profile against several saved targets or models, one after another, then compare them</source>
        <translation>依次用此配置对多个已保存的目标或模型执行扫描，然后对比结果</translation>
    </message>
    <message>
        <source>Saved target</source>
        <translation>已保存的目标</translation>
    </message>
    <message>
        <source>No saved targets yet: add them on the Targets page first.</source>
        <translation>还没有已保存的目标：请先在“目标”页添加。</translation>
    </message>
    <message>
        <source>Opening %1</source>
        <translation>正在打开 %1</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n run(s) to compare</source>
        <translation>
            <numerusform>正在读取 %n 个运行以进行比较</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop reading the run</source>
        <translation>停止读取该运行</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message numerus="yes">
        <source>Importing %n file(s)</source>
        <translation>
            <numerusform>正在导入 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1… %2%</source>
        <translation>%1… %2%</translation>
    </message>
    <message>
        <source>Imported %1 steps from %2 result files as %3 runs that differ in what they measured (%4): comparing them%5</source>
        <translation>已从 %2 结果文件导入 %1 个步骤，作为 %3 个测量内容不同的运行（%4）：正在对比它们%5</translation>
    </message>
    <message numerus="yes">
        <source>; refused %n file(s): %1</source>
        <translation>
            <numerusform>；拒绝了 %n 个文件：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading the saved targets</source>
        <translation>正在读取已保存的目标</translation>
    </message>
</context>
<context>
    <name>kp::ui::MatrixRun</name>
    <message>
        <source>Matrix %1 of %2: %3</source>
        <translation>矩阵第 %1 / %2 个：%3</translation>
    </message>
</context>
<context>
    <name>kp::ui::OpenedRun</name>
    <message>
        <source>Imported from %1</source>
        <translation>从 %1 导入</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>%1: cannot read: %2</source>
        <translation>%1：无法读取：%2</translation>
    </message>
    <message>
        <source>the soak&apos;s request records (%1 MB) are not read into the window: its windows show it; kneepoint-cli export --timeline reads them from %2</source>
        <translation>浸泡测试的请求记录（%1 MB）未读入窗口：由其窗口展示；kneepoint-cli export --timeline 可从 %2 读取它们</translation>
    </message>
</context>
<context>
    <name>kp::ui::ParetoChart</name>
    <message>
        <source>Pareto front: output tokens per second</source>
        <translation>帕累托前沿：每秒输出 token</translation>
    </message>
    <message>
        <source>tok/s per user</source>
        <translation>每用户 tok/s</translation>
    </message>
    <message>
        <source>No step to place: a step needs answers of two tokens or more (for TPOT), every request ended, and errors under 5%.</source>
        <translation>没有可绘制的步骤：步骤需要两个及以上 token 的回答（用于 TPOT）、所有请求均已结束，且错误低于 5%。</translation>
    </message>
    <message>
        <source>tok/s per GPU</source>
        <translation>每 GPU tok/s</translation>
    </message>
    <message>
        <source>tok/s per server</source>
        <translation>每服务器 tok/s</translation>
    </message>
    <message>
        <source>front</source>
        <translation>前沿</translation>
    </message>
    <message>
        <source>other steps</source>
        <translation>其他步骤</translation>
    </message>
    <message>
        <source>%1, other steps</source>
        <translation>%1，其他步骤</translation>
    </message>
    <message>
        <source>%1: %2 tok/s per user, %3 tok/s %4%5</source>
        <translation>%1：每用户 %2 tok/s，%4 %3 tok/s%5</translation>
    </message>
    <message>
        <source>per GPU</source>
        <translation>每 GPU</translation>
    </message>
    <message>
        <source>per server</source>
        <translation>每服务器</translation>
    </message>
    <message>
        <source> (on the front)</source>
        <translation>（在前沿上）</translation>
    </message>
    <message>
        <source>Output tokens per second per user against per GPU, one point per step, as steps finish.</source>
        <translation>每用户每秒输出 token 与每 GPU 每秒输出 token，每步一个点，随步骤完成而绘出。</translation>
    </message>
</context>
<context>
    <name>kp::ui::PlanEstimate</name>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
</context>
<context>
    <name>kp::ui::PlanPreview</name>
    <message>
        <source>floor: one request at a time</source>
        <translation>下限：一次一个请求</translation>
    </message>
    <message>
        <source>ceiling: every request at once</source>
        <translation>上限：全部请求一次发出</translation>
    </message>
    <message>
        <source>between floor and ceiling</source>
        <translation>在下限与上限之间</translation>
    </message>
    <message>
        <source>sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Time to send the step&apos;s requests at the offered rate</source>
        <translation>按目标请求速率发出该步全部请求所需的时间</translation>
    </message>
    <message>
        <source>depends on the server</source>
        <translation>取决于服务器</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>1 step</source>
        <translation>1 步</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 步</translation>
    </message>
    <message>
        <source>at least %1 requests (%2 more steps run for a fixed time)</source>
        <translation>至少 %1 个请求（另有 %2 步按固定时长运行）</translation>
    </message>
    <message>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source> + %1 warm-up</source>
        <translation> + %1 预热</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>≈ %1</source>
        <translation>≈ %1</translation>
    </message>
    <message>
        <source>sending %1</source>
        <translation>发送 %1</translation>
    </message>
    <message>
        <source>cooldown %1</source>
        <translation>冷却 %1</translation>
    </message>
    <message>
        <source>1 step whose length depends on the server</source>
        <translation>1 步的时长取决于服务器</translation>
    </message>
    <message>
        <source>%1 steps whose length depends on the server</source>
        <translation>%1 步的时长取决于服务器</translation>
    </message>
    <message>
        <source>warm-up</source>
        <translation>预热</translation>
    </message>
    <message>
        <source>answering each step&apos;s last requests</source>
        <translation>等待每步最后一批请求的响应</translation>
    </message>
    <message>
        <source>plus %1</source>
        <translation>另加 %1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>depends on the dataset</source>
        <translation>取决于数据集</translation>
    </message>
    <message>
        <source>%1 output</source>
        <translation>%1 输出</translation>
    </message>
    <message>
        <source>up to %1 output</source>
        <translation>最多 %1 输出</translation>
    </message>
    <message>
        <source>%1 tokens (%2 input, %3)</source>
        <translation>%1 token（%2 输入，%3）</translation>
    </message>
    <message>
        <source>The auto rates are chosen once the floor and ceiling are measured.</source>
        <translation>测出下限和上限后再选择自动速率。</translation>
    </message>
    <message>
        <source>Refinement may add 1 step.</source>
        <translation>细化可能增加 1 步。</translation>
    </message>
    <message>
        <source>Refinement may add up to %1 steps.</source>
        <translation>细化最多可能增加 %1 步。</translation>
    </message>
    <message>
        <source>The best step that meets the SLO runs once more.</source>
        <translation>满足 SLO 的最佳步骤会再运行一次。</translation>
    </message>
    <message>
        <source>The best step that meets the SLO runs %1 more times.</source>
        <translation>满足 SLO 的最佳步骤会再运行 %1 次。</translation>
    </message>
    <message>
        <source>Escalation stops early if the server collapses.</source>
        <translation>如果服务器吞吐崩溃，加压会提前停止。</translation>
    </message>
    <message>
        <source>Every load runs once more after the pass.</source>
        <translation>本轮结束后，每个负载再运行一次。</translation>
    </message>
    <message>
        <source>Every load runs %1 more times after the pass.</source>
        <translation>本轮结束后，每个负载再运行 %1 次。</translation>
    </message>
    <message>
        <source>The dataset gives at most %1 prompts for %2%3 requests: at least %4 % of requests will re-send a prompt (a prefix-caching server will look faster than under real traffic).</source>
        <translation>数据集最多提供 %1 个提示词，用于 %2%3 个请求：至少 %4 % 的请求会重发提示词（启用前缀缓存的服务器会显得比真实流量下更快）。</translation>
    </message>
    <message>
        <source>at least </source>
        <translation>至少 </translation>
    </message>
    <message>
        <source>The dataset has %1 prompts for %2%3 requests: %4 % of requests will re-send a prompt (a prefix-caching server will look faster than under real traffic).</source>
        <translation>数据集有 %1 个提示词，用于 %2%3 个请求：%4 % 的请求会重发提示词（启用前缀缓存的服务器会显得比真实流量下更快）。</translation>
    </message>
</context>
<context>
    <name>kp::ui::PrefixCacheChart</name>
    <message>
        <source>Prefix-cache hit rate</source>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>client (cached tokens)</source>
        <translation>客户端（缓存 token）</translation>
    </message>
    <message>
        <source>The prefix-cache hit rate against the offered load, as steps finish.</source>
        <translation>各步完成后，这里显示前缀缓存命中率与施加负载的关系。</translation>
    </message>
    <message>
        <source>No prefix-cache figures: the server reported no cached tokens.</source>
        <translation>没有前缀缓存数据：服务器未报告缓存的 token。</translation>
    </message>
</context>
<context>
    <name>kp::ui::ProfileForm</name>
    <message>
        <source>Go to:</source>
        <translation>跳转到：</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>SLOs</source>
        <translation>SLO</translation>
    </message>
    <message>
        <source>Server info</source>
        <translation>服务器信息</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Shown in the profile library and kept with every run.</source>
        <translation>显示在配置库中，并随每次运行保存。</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>What this profile is for; kept with every run.</source>
        <translation>此配置的用途；随每次运行保存。</translation>
    </message>
    <message>
        <source>Problems: %1</source>
        <translation>问题：%1</translation>
    </message>
    <message>
        <source>unset</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>http://gpu-box:8000 or sim://default</source>
        <translation>http://gpu-box:8000 或 sim://default</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Required. An http:// or https:// URL with a host, optionally a path prefix. A trailing /v1 is fine. sim://PRESET[?time_scale=F] runs the built-in simulator for the run.</source>
        <translation>必填。带主机名的 http:// 或 https:// URL，可带路径前缀，结尾带 /v1 也可以。sim://PRESET[?time_scale=F] 表示运行时使用内置模拟器。</translation>
    </message>
    <message>
        <source>openai-chat — chat completions</source>
        <translation>openai-chat — 对话补全</translation>
    </message>
    <message>
        <source>openai — completions</source>
        <translation>openai — 文本补全</translation>
    </message>
    <message>
        <source>vllm — vLLM completions</source>
        <translation>vllm — vLLM 补全</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Path appended to the base URL, starting with /. Empty: the backend&apos;s default. May carry a query.</source>
        <translation>附加在基础 URL 之后的路径，以 / 开头。留空则使用后端默认值。可带查询参数。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>empty: the first model the server lists</source>
        <translation>留空：使用服务器列出的第一个模型</translation>
    </message>
    <message>
        <source>Model name. Empty: the first model GET /v1/models lists.</source>
        <translation>模型名称。留空：使用 GET /v1/models 列出的第一个模型。</translation>
    </message>
    <message>
        <source>Served model name</source>
        <translation>服务模型名</translation>
    </message>
    <message>
        <source>empty: the model name</source>
        <translation>留空：使用模型名称</translation>
    </message>
    <message>
        <source>The model sent in requests when it differs from the model name.</source>
        <translation>与模型名称不同时，请求中发送的模型名。</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Show or hide the key</source>
        <translation>显示或隐藏密钥</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Name: value, one per line; values may use ${ENV_VAR}</source>
        <translation>名称: 值，每行一个；值可以使用 ${ENV_VAR}</translation>
    </message>
    <message>
        <source>line %1: expected &quot;Name: value&quot;</source>
        <translation>第 %1 行：应为 &quot;名称: 值&quot;</translation>
    </message>
    <message>
        <source>Extra headers</source>
        <translation>附加请求头</translation>
    </message>
    <message>
        <source>Sent with every request, in this order. Values may contain ${NAME} references.</source>
        <translation>按此顺序随每个请求发送。值可以包含 ${NAME} 引用。</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>TCP (and TLS) connection, seconds.</source>
        <translation>TCP（及 TLS）连接，单位秒。</translation>
    </message>
    <message>
        <source>Request sent → first byte of the response body, seconds. Long on purpose: under overload, queueing is what is being measured.</source>
        <translation>从发出请求到收到响应体第一个字节，单位秒。有意设得较长：过载时排队正是要测量的内容。</translation>
    </message>
    <message>
        <source>Longest silence between two chunks, seconds.</source>
        <translation>两个数据块之间的最长静默时间，单位秒。</translation>
    </message>
    <message>
        <source>Request sent → last byte, seconds.</source>
        <translation>从发出请求到最后一个字节，单位秒。</translation>
    </message>
    <message>
        <source>Timeouts</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>first token</source>
        <translation>首 token</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Seconds.</source>
        <translation>秒。</translation>
    </message>
    <message>
        <source>Verify the server&apos;s TLS certificate</source>
        <translation>验证服务器的 TLS 证书</translation>
    </message>
    <message>
        <source>Turn off only for servers with self-signed certificates.</source>
        <translation>仅对使用自签名证书的服务器关闭。</translation>
    </message>
    <message>
        <source>none, system or a proxy URL</source>
        <translation>none、system 或代理 URL</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <source>none: connect directly. system: the system or environment proxy settings. Otherwise a proxy URL: http://proxy:3128, socks5://host:1080.</source>
        <translation>none：直接连接。system：使用系统或环境变量的代理设置。否则填写代理 URL：http://proxy:3128、socks5://host:1080。</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Dataset file</source>
        <translation>数据集文件</translation>
    </message>
    <message>
        <source>Datasets (*.json *.jsonl);;All files (*)</source>
        <translation>数据集 (*.json *.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source> requests</source>
        <translation> 个请求</translation>
    </message>
    <message>
        <source>Prompts per step</source>
        <translation>每步提示词数</translation>
    </message>
    <message>
        <source>Requests per step (per rate or concurrency), unless a step duration is set.</source>
        <translation>每步的请求数（每个速率或并发各一步），除非设置了步时长。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an integer</source>
        <translation>&quot;%1&quot; 不是整数</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Seed for prompt sampling and arrival times.</source>
        <translation>用于提示词采样和到达时间的随机种子。</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> token</translation>
    </message>
    <message>
        <source>random: prompt length, tokens.</source>
        <translation>random：提示词长度，单位 token。</translation>
    </message>
    <message>
        <source>random: max_tokens per request.</source>
        <translation>random：每个请求的 max_tokens。</translation>
    </message>
    <message>
        <source>random: lengths drawn uniformly from [len·(1−r), len·(1+r)]; in [0, 1).</source>
        <translation>random：长度在 [len·(1−r), len·(1+r)] 中均匀抽取；取值范围 [0, 1)。</translation>
    </message>
    <message>
        <source>random: a shared prefix in front of every prompt, tokens.</source>
        <translation>random：每个提示词前的共享前缀，单位 token。</translation>
    </message>
    <message>
        <source>Random prompts</source>
        <translation>随机提示词</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>spread</source>
        <translation>波动</translation>
    </message>
    <message>
        <source>shared prefix</source>
        <translation>共享前缀</translation>
    </message>
    <message>
        <source>Fixed output length</source>
        <translation>固定输出长度</translation>
    </message>
    <message>
        <source>sharegpt/jsonl: max_tokens for every request instead of the dataset&apos;s own output length.</source>
        <translation>sharegpt/jsonl：对每个请求使用此 max_tokens，而不是数据集自带的输出长度。</translation>
    </message>
    <message>
        <source>Ignore end-of-sequence (every request produces max_tokens)</source>
        <translation>忽略结束符（每个请求都生成 max_tokens 个 token）</translation>
    </message>
    <message>
        <source>Ask the server to ignore end-of-sequence so that every request produces max_tokens tokens (vLLM extension).</source>
        <translation>要求服务器忽略结束符，使每个请求都生成 max_tokens 个 token（vLLM 扩展参数）。</translation>
    </message>
    <message>
        <source>≥ 0. 0: greedy, as the reference does.</source>
        <translation>≥ 0。0：贪心解码，与参考实现一致。</translation>
    </message>
    <message>
        <source>In (0, 1]. Sent only when set.</source>
        <translation>取值 (0, 1]。仅在设置时发送。</translation>
    </message>
    <message>
        <source>≥ −1; −1 or 0 disable it (vLLM). Sent only when set.</source>
        <translation>≥ −1；−1 或 0 表示禁用（vLLM）。仅在设置时发送。</translation>
    </message>
    <message>
        <source>In [0, 1]. Sent only when set.</source>
        <translation>取值 [0, 1]。仅在设置时发送。</translation>
    </message>
    <message>
        <source>In [−2, 2]. Sent only when set.</source>
        <translation>取值 [−2, 2]。仅在设置时发送。</translation>
    </message>
    <message>
        <source>&gt; 0. Sent only when set.</source>
        <translation>&gt; 0。仅在设置时发送。</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>top p</source>
        <translation>top p</translation>
    </message>
    <message>
        <source>top k</source>
        <translation>top k</translation>
    </message>
    <message>
        <source>min p</source>
        <translation>min p</translation>
    </message>
    <message>
        <source>presence</source>
        <translation>存在惩罚</translation>
    </message>
    <message>
        <source>frequency</source>
        <translation>频率惩罚</translation>
    </message>
    <message>
        <source>repetition</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>Sampling parameters sent with every request; &quot;unset&quot; ones are left out. Step below the lowest value to unset one.</source>
        <translation>随每个请求发送的采样参数；&quot;未设置&quot;的参数不发送。调到最小值以下即可取消设置。</translation>
    </message>
    <message>
        <source>{ &quot;priority&quot;: 1 }</source>
        <translation>{ &quot;priority&quot;: 1 }</translation>
    </message>
    <message>
        <source>%1 at character %2</source>
        <translation>第 %2 个字符处：%1</translation>
    </message>
    <message>
        <source>must be a JSON object</source>
        <translation>必须是 JSON 对象</translation>
    </message>
    <message>
        <source>Extra body</source>
        <translation>附加请求体</translation>
    </message>
    <message>
        <source>A JSON object merged into every request body last, so it overrides Kneepoint&apos;s own keys.</source>
        <translation>最后合并进每个请求体的 JSON 对象，因此会覆盖 Kneepoint 自己设置的键。</translation>
    </message>
    <message>
        <source>rate — open loop, requests arrive at the rates</source>
        <translation>rate — 开环，请求按给定速率到达</translation>
    </message>
    <message>
        <source>concurrency — closed loop, N users</source>
        <translation>concurrency — 闭环，N 个并发用户</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>rate: open loop, requests arrive at the given rates. concurrency: closed loop, N users each send their next request when the last one ends.</source>
        <translation>rate：开环，请求按给定速率到达。concurrency：闭环，N 个用户各自在上一个请求结束后发送下一个请求。</translation>
    </message>
    <message>
        <source>list — the rates or concurrencies below</source>
        <translation>list — 使用下面列出的速率或并发数</translation>
    </message>
    <message>
        <source>linear — evenly spaced from start to stop</source>
        <translation>linear — 从起点到终点等间距</translation>
    </message>
    <message>
        <source>geometric — a geometric progression</source>
        <translation>geometric — 等比数列</translation>
    </message>
    <message>
        <source>auto — measure floor and ceiling, then fill</source>
        <translation>auto — 先测下限和上限，再填充中间</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>list: the rates or concurrencies as given. linear / geometric: `steps` loads from start to stop. auto: a synchronous step and an all-out step measure the floor and ceiling of the server, then `steps` rates fill the range, denser near the ceiling, with two beyond it.</source>
        <translation>list：按给定的速率或并发数。linear / geometric：从 start 到 stop 共 `steps` 个负载。auto：先用一个同步步骤和一个全速步骤测出服务器的下限和上限，再用 `steps` 个速率填充该区间，越靠近上限越密，并在上限之外再加两个。</translation>
    </message>
    <message>
        <source>e.g. 1, 2, 4, 8, 16, inf</source>
        <translation>例如 1, 2, 4, 8, 16, inf</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number or &quot;inf&quot;</source>
        <translation>&quot;%1&quot; 不是数字或 &quot;inf&quot;</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>req/s</translation>
    </message>
    <message>
        <source>Requests per second, one step each, separated by commas. inf sends all requests at once.</source>
        <translation>每秒请求数，每个值一步，用逗号分隔。inf 表示一次性发出全部请求。</translation>
    </message>
    <message>
        <source>Rates</source>
        <translation>请求速率</translation>
    </message>
    <message>
        <source>e.g. 1, 8, 32, 128</source>
        <translation>例如 1, 8, 32, 128</translation>
    </message>
    <message>
        <source>users</source>
        <translation>并发</translation>
    </message>
    <message>
        <source>Users in flight, one step each, separated by commas (concurrency mode).</source>
        <translation>同时在途的用户数，每个值一步，用逗号分隔（并发模式）。</translation>
    </message>
    <message>
        <source>Concurrencies</source>
        <translation>并发数</translation>
    </message>
    <message>
        <source>linear, geometric: the first load (&gt; 0).</source>
        <translation>linear、geometric：第一个负载（&gt; 0）。</translation>
    </message>
    <message>
        <source>linear, geometric: the last load (≥ start).</source>
        <translation>linear、geometric：最后一个负载（≥ start）。</translation>
    </message>
    <message>
        <source>linear, geometric: the number of loads (≥ 2). auto: rates between floor and ceiling (0: 8).</source>
        <translation>linear、geometric：负载个数（≥ 2）。auto：下限与上限之间的速率个数（0 表示 8）。</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>start</source>
        <translation>起点</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>终点</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>The range for linear and geometric plans.</source>
        <translation>linear 和 geometric 计划的范围。</translation>
    </message>
    <message>
        <source> in flight</source>
        <translation> 在途</translation>
    </message>
    <message>
        <source>Shape of the gamma distribution of inter-arrival times: 1 is Poisson, below 1 burstier, above 1 more regular.</source>
        <translation>到达间隔的 gamma 分布形状参数：1 为泊松分布，小于 1 更突发，大于 1 更均匀。</translation>
    </message>
    <message>
        <source>rate mode: the most requests in flight; later arrivals wait for a slot (shown as dispatch lag).</source>
        <translation>rate 模式：最多同时在途的请求数；之后到达的请求需等待空位（显示为发送延迟）。</translation>
    </message>
    <message>
        <source>Arrivals</source>
        <translation>到达</translation>
    </message>
    <message>
        <source>burstiness</source>
        <translation>突发度</translation>
    </message>
    <message>
        <source>at most</source>
        <translation>最多</translation>
    </message>
    <message>
        <source>How requests arrive in rate mode.</source>
        <translation>rate 模式下请求如何到达。</translation>
    </message>
    <message>
        <source>The rate rises linearly from zero to the step&apos;s rate over this time at the start of each step.</source>
        <translation>每步开始时，速率在这段时间内从零线性升到该步的速率。</translation>
    </message>
    <message>
        <source>Sent before each step and left out of its metrics.</source>
        <translation>在每步之前发送，不计入该步的指标。</translation>
    </message>
    <message>
        <source>Pause between steps.</source>
        <translation>两步之间的暂停时间。</translation>
    </message>
    <message>
        <source>Run each step for this long (prompts reused in order) instead of a number of prompts.</source>
        <translation>每步运行这么长时间（按顺序重复使用提示词），而不是按提示词数量。</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>ramp-up</source>
        <translation>爬坡</translation>
    </message>
    <message>
        <source>warm-up</source>
        <translation>预热</translation>
    </message>
    <message>
        <source>cooldown</source>
        <translation>冷却</translation>
    </message>
    <message>
        <source>duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>How each step starts and ends.</source>
        <translation>每步如何开始和结束。</translation>
    </message>
    <message>
        <source>Refine at the SLO boundary</source>
        <translation>在 SLO 边界处细化</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> 步</translation>
    </message>
    <message>
        <source>After the coarse pass, add steps at the SLO boundary (and around the knee).</source>
        <translation>粗扫之后，在 SLO 边界（及拐点附近）增加步骤。</translation>
    </message>
    <message>
        <source>Refine until the boundary is known within this fraction of the load; in (0, 1).</source>
        <translation>细化到边界精度在负载的这一比例以内；取值 (0, 1)。</translation>
    </message>
    <message>
        <source>Upper bound on the steps refinement adds.</source>
        <translation>细化最多增加的步数。</translation>
    </message>
    <message>
        <source>tolerance</source>
        <translation>容差</translation>
    </message>
    <message>
        <source>Refinement</source>
        <translation>细化</translation>
    </message>
    <message>
        <source>Steps added after the coarse pass.</source>
        <translation>粗扫之后增加的步骤。</translation>
    </message>
    <message>
        <source> times</source>
        <translation> 次</translation>
    </message>
    <message>
        <source>Stop escalating once the server collapses</source>
        <translation>服务器吞吐崩溃时停止加压</translation>
    </message>
    <message>
        <source>Stop once throughput fell for two steps in a row while the SLO&apos;s latency rose (a collapse).</source>
        <translation>吞吐量连续两步下降且 SLO 对应的延迟上升（吞吐崩溃）时停止。</translation>
    </message>
    <message>
        <source>Also stop escalating once a step&apos;s error rate passes this fraction, in (0, 1] (0.2 = 20 %).</source>
        <translation>当某步的错误率超过此比例时也停止加压，取值 (0, 1]（0.2 = 20 %）。</translation>
    </message>
    <message>
        <source>stop at error rate</source>
        <translation>错误率上限</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>停止条件</translation>
    </message>
    <message>
        <source>When escalation stops, and what is repeated.</source>
        <translation>何时停止加压，以及重复哪些步骤。</translation>
    </message>
    <message>
        <source>Service-level objectives</source>
        <translation>服务等级目标（SLO）</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Time to first token, ms (&gt; 0).</source>
        <translation>首字延迟，单位 ms（&gt; 0）。</translation>
    </message>
    <message>
        <source>Time per output token (excluding the first), ms (&gt; 0).</source>
        <translation>每输出 token 时间（不含第一个），单位 ms（&gt; 0）。</translation>
    </message>
    <message>
        <source>End-to-end latency, ms (&gt; 0).</source>
        <translation>端到端延迟，单位 ms（&gt; 0）。</translation>
    </message>
    <message>
        <source>Latency limits</source>
        <translation>延迟上限</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>TPOT</source>
        <translation>TPOT</translation>
    </message>
    <message>
        <source>E2EL</source>
        <translation>E2EL</translation>
    </message>
    <message>
        <source>A step meets the SLO when the percentile below of each metric with a limit is within it.</source>
        <translation>当每个设有上限的指标在下方百分位上都不超过上限时，该步满足 SLO。</translation>
    </message>
    <message>
        <source>Failed ÷ sent, in [0, 1]: 0.01 is 1 %. Step below 0 to unset.</source>
        <translation>失败数 ÷ 发送数，取值 [0, 1]：0.01 即 1 %。调到 0 以下即可取消设置。</translation>
    </message>
    <message>
        <source>Applies to</source>
        <translation>适用于</translation>
    </message>
    <message>
        <source>percentile</source>
        <translation>百分位</translation>
    </message>
    <message>
        <source>max error rate</source>
        <translation>最大错误率</translation>
    </message>
    <message>
        <source>The same limits define goodput.</source>
        <translation>同样的上限也用于定义有效吞吐量（goodput）。</translation>
    </message>
    <message>
        <source>Server info (kept with the results)</source>
        <translation>服务器信息（随结果保存）</translation>
    </message>
    <message>
        <source>vllm, sglang, …</source>
        <translation>vllm、sglang、…</translation>
    </message>
    <message>
        <source>What the server runs, e.g. vllm, sglang.</source>
        <translation>服务器运行的推理引擎，例如 vllm、sglang。</translation>
    </message>
    <message>
        <source>Its version.</source>
        <translation>其版本。</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Informational: nothing here changes how the test runs.</source>
        <translation>仅供记录：这里的内容不影响测试的运行方式。</translation>
    </message>
    <message>
        <source>The server&apos;s host name.</source>
        <translation>服务器的主机名。</translation>
    </message>
    <message>
        <source>1–65535.</source>
        <translation>1–65535。</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Where the server runs.</source>
        <translation>服务器运行的位置。</translation>
    </message>
    <message>
        <source>Sequences batched at once (≥ 1).</source>
        <translation>同时批处理的序列数（≥ 1）。</translation>
    </message>
    <message>
        <source>Tokens per batch (≥ 1).</source>
        <translation>每批 token 数（≥ 1）。</translation>
    </message>
    <message>
        <source>Context length (≥ 1).</source>
        <translation>上下文长度（≥ 1）。</translation>
    </message>
    <message>
        <source>In (0, 1].</source>
        <translation>取值 (0, 1]。</translation>
    </message>
    <message>
        <source>≥ 1.</source>
        <translation>≥ 1。</translation>
    </message>
    <message>
        <source>Engine settings</source>
        <translation>引擎设置</translation>
    </message>
    <message>
        <source>max seqs</source>
        <translation>最大序列数</translation>
    </message>
    <message>
        <source>batched tokens</source>
        <translation>批处理 token 数</translation>
    </message>
    <message>
        <source>model length</source>
        <translation>模型长度</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>The engine&apos;s settings, as the server was started.</source>
        <translation>服务器启动时使用的引擎设置。</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>e.g. 2x H100 80GB SXM</source>
        <translation>例如 2x H100 80GB SXM</translation>
    </message>
    <message>
        <source>The accelerators the server runs on.</source>
        <translation>服务器使用的加速卡。</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Anything else worth keeping with the results.</source>
        <translation>其他值得随结果保存的信息。</translation>
    </message>
    <message>
        <source>Write the reference-compatible result JSON</source>
        <translation>写出与参考实现兼容的结果 JSON</translation>
    </message>
    <message>
        <source>with per-request lists</source>
        <translation>包含逐请求列表</translation>
    </message>
    <message>
        <source>Also write the reference-compatible result JSON per step.</source>
        <translation>同时为每步写出与参考实现兼容的结果 JSON。</translation>
    </message>
    <message>
        <source>Include per-request lists (input_lens, ttfts, itls, …).</source>
        <translation>包含逐请求列表（input_lens、ttfts、itls、…）。</translation>
    </message>
    <message>
        <source>Result files</source>
        <translation>结果文件</translation>
    </message>
    <message>
        <source>Files written next to Kneepoint&apos;s own run records.</source>
        <translation>写在 Kneepoint 自己的运行记录旁边的文件。</translation>
    </message>
    <message>
        <source>directory for result files</source>
        <translation>结果文件目录</translation>
    </message>
    <message>
        <source>Result directory</source>
        <translation>结果目录</translation>
    </message>
    <message>
        <source>Directory for result files.</source>
        <translation>结果文件所在目录。</translation>
    </message>
    <message>
        <source>File name</source>
        <translation>文件名</translation>
    </message>
    <message>
        <source>{backend}-{rate}qps-{model}-{date}.json</source>
        <translation>{backend}-{rate}qps-{model}-{date}.json</translation>
    </message>
    <message>
        <source>Empty: the reference&apos;s {backend}-{rate}qps-{model}-{date}.json.</source>
        <translation>留空：使用参考实现的 {backend}-{rate}qps-{model}-{date}.json。</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Written into results as label.</source>
        <translation>作为 label 写入结果。</translation>
    </message>
    <message>
        <source>Percentiles of</source>
        <translation>百分位指标</translation>
    </message>
    <message>
        <source>Metrics to report percentiles for.</source>
        <translation>需要报告百分位的指标。</translation>
    </message>
    <message>
        <source>e.g. 50, 90, 99, 99.9</source>
        <translation>例如 50, 90, 99, 99.9</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation>&quot;%1&quot; 不是数字</translation>
    </message>
    <message>
        <source>Percentiles</source>
        <translation>百分位</translation>
    </message>
    <message>
        <source>Which percentiles, each in (0, 100]: 99 is P99.</source>
        <translation>报告哪些百分位，每个取值 (0, 100]：99 即 P99。</translation>
    </message>
    <message>
        <source> req/s</source>
        <translation> req/s</translation>
    </message>
    <message>
        <source> users</source>
        <translation> 并发</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>The built-in simulator needs no key.</source>
        <translation>内置模拟器不需要密钥。</translation>
    </message>
    <message>
        <source>Sent: %1. Prefer ${ENV_VAR}: profiles get shared.</source>
        <translation>发送：%1。建议使用 ${ENV_VAR}：配置常会被分享。</translation>
    </message>
    <message>
        <source>Sent: %1.</source>
        <translation>发送：%1。</translation>
    </message>
    <message>
        <source>&lt;base_url&gt;/metrics</source>
        <translation>&lt;base_url&gt;/metrics</translation>
    </message>
    <message>
        <source>The server&apos;s Prometheus metrics, read while each step runs. Empty: &lt;base_url&gt;/metrics; &quot;off&quot;: not read.</source>
        <translation>服务器的 Prometheus 指标，在每步运行时读取。留空：&lt;base_url&gt;/metrics；&quot;off&quot;：不读取。</translation>
    </message>
    <message>
        <source>Seconds between two reads.</source>
        <translation>两次读取之间的秒数。</translation>
    </message>
    <message>
        <source>Server metrics</source>
        <translation>服务器指标</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>every</source>
        <translation>间隔</translation>
    </message>
    <message>
        <source>KV cache, queue and preemptions explain the knee.</source>
        <translation>KV 缓存、队列和抢占可以解释拐点的成因。</translation>
    </message>
    <message>
        <source>e.g. NVIDIA H100 80GB HBM3</source>
        <translation>例如 NVIDIA H100 80GB HBM3</translation>
    </message>
    <message>
        <source>CUDA 12.4, ROCm 6.1</source>
        <translation>CUDA 12.4、ROCm 6.1</translation>
    </message>
    <message>
        <source>bf16, fp8, awq int4</source>
        <translation>bf16、fp8、awq int4</translation>
    </message>
    <message>
        <source>The accelerator model.</source>
        <translation>加速卡型号。</translation>
    </message>
    <message>
        <source>How many serve the model (≥ 1).</source>
        <translation>用于服务该模型的加速卡数量（≥ 1）。</translation>
    </message>
    <message>
        <source>The accelerator driver&apos;s version.</source>
        <translation>加速卡驱动版本。</translation>
    </message>
    <message>
        <source>CUDA or ROCm version.</source>
        <translation>CUDA 或 ROCm 版本。</translation>
    </message>
    <message>
        <source>Weights&apos; dtype and quantisation.</source>
        <translation>权重的数据类型和量化方式。</translation>
    </message>
    <message>
        <source>Accelerators</source>
        <translation>加速卡</translation>
    </message>
    <message>
        <source>model</source>
        <translation>型号</translation>
    </message>
    <message>
        <source>count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>CUDA/ROCm</source>
        <translation>CUDA/ROCm</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Kept with every run: the same command differs across drivers and versions.</source>
        <translation>随每次运行保存：同样的命令在不同驱动和版本下表现不同。</translation>
    </message>
    <message>
        <source>none: the endpoint below</source>
        <translation>无：使用下面的端点</translation>
    </message>
    <message>
        <source>Saved target</source>
        <translation>已保存的目标</translation>
    </message>
    <message>
        <source>The name of a target kept on the Targets page. When set, the run uses that endpoint, model and key, and the fields below are not used; editing the target updates every profile that names it.</source>
        <translation>“目标”页中保存的目标名称。设置后，运行将使用该目标的端点、模型和密钥，下面的字段不再使用；编辑该目标会更新所有引用它的配置。</translation>
    </message>
    <message>
        <source>${ENV_VAR}, file:PATH, keychain:ENTRY, a key, or empty</source>
        <translation>${ENV_VAR}、file:PATH、keychain:ENTRY、密钥或留空</translation>
    </message>
    <message>
        <source>Store in keychain…</source>
        <translation>存入钥匙串…</translation>
    </message>
    <message>
        <source>Store the typed key in the desktop keychain and keep only a keychain:ENTRY reference in the profile</source>
        <translation>将输入的密钥存入桌面钥匙串，配置中只保留 keychain:ENTRY 引用</translation>
    </message>
    <message>
        <source>Store in keychain</source>
        <translation>存入钥匙串</translation>
    </message>
    <message>
        <source>Type the key itself into the field first: only a literal key can be stored in the keychain.</source>
        <translation>请先在字段中输入密钥本身：只有直接填写的密钥才能存入钥匙串。</translation>
    </message>
    <message>
        <source>Keychain entry name (service &quot;Kneepoint&quot;):</source>
        <translation>钥匙串条目名称（服务 &quot;Kneepoint&quot;）：</translation>
    </message>
    <message>
        <source>The key was not stored: %1

The field still holds the key. Reference an environment variable (${NAME}) or a key file (file:PATH) instead.</source>
        <translation>密钥未能保存：%1

字段中仍是该密钥。请改为引用环境变量（${NAME}）或密钥文件（file:PATH）。</translation>
    </message>
    <message>
        <source>A literal key, a ${NAME} reference read from the environment when the run starts, file:PATH (the file&apos;s first line), keychain:ENTRY (the desktop keychain), or empty (then OPENAI_API_KEY if set). Prefer a reference: profiles get shared. Sent as Authorization: Bearer.</source>
        <translation>直接填写密钥，或 ${NAME} 引用（运行开始时从环境变量读取），或 file:PATH（文件的第一行），或 keychain:ENTRY（桌面钥匙串），或留空（此时若设置了 OPENAI_API_KEY 则使用它）。建议使用引用：配置常会被分享。以 Authorization: Bearer 发送。</translation>
    </message>
    <message>
        <source>&quot;keychain:&quot; needs an entry name.</source>
        <translation>&quot;keychain:&quot; 需要一个条目名称。</translation>
    </message>
    <message>
        <source>Sent: keychain entry %1, read when a run starts.</source>
        <translation>发送：钥匙串条目 %1，运行开始时读取。</translation>
    </message>
    <message>
        <source>Lengths of the synthetic prompts (datasets random and shared-prefix; for shared-prefix, input is the length after the prefix).</source>
        <translation>合成提示词的长度（数据集 random 和 shared-prefix；对 shared-prefix，输入是前缀之后的长度）。</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>shared-prefix: distinct prefixes, each of the shared prefix length above.</source>
        <translation>shared-prefix：不同前缀的个数，每个前缀的长度为上方的共享前缀长度。</translation>
    </message>
    <message>
        <source>shared-prefix: prompts per prefix; auto: the prompts per step divided among the prefixes.</source>
        <translation>shared-prefix：每个前缀的提示词数；自动：每步的提示词数平均分给各前缀。</translation>
    </message>
    <message>
        <source>Shared prefixes</source>
        <translation>共享前缀</translation>
    </message>
    <message>
        <source>prefixes</source>
        <translation>前缀数</translation>
    </message>
    <message>
        <source>prompts each</source>
        <translation>每个的提示词数</translation>
    </message>
    <message>
        <source>Groups of prompts that share a prefix, to measure prefix caching (dataset shared-prefix).</source>
        <translation>共享同一前缀的提示词组，用于测量前缀缓存（数据集 shared-prefix）。</translation>
    </message>
    <message>
        <source>Filter by length, as the reference does</source>
        <translation>按长度过滤（与参考基准相同）</translation>
    </message>
    <message>
        <source>sharegpt: leave out conversations whose prompt or answer is shorter than the minimum, whose prompt is longer than the maximum, or whose prompt and answer together are longer than the total.</source>
        <translation>sharegpt：去掉提示词或回答短于最小值、提示词长于最大值、或提示词与回答合计长于总长上限的对话。</translation>
    </message>
    <message>
        <source>sharegpt: shortest prompt or answer kept.</source>
        <translation>sharegpt：保留的最短提示词或回答。</translation>
    </message>
    <message>
        <source>sharegpt: longest prompt kept.</source>
        <translation>sharegpt：保留的最长提示词。</translation>
    </message>
    <message>
        <source>sharegpt: longest prompt and answer together kept.</source>
        <translation>sharegpt：保留的提示词与回答合计最长长度。</translation>
    </message>
    <message>
        <source>minimum</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>prompt at most</source>
        <translation>提示词最多</translation>
    </message>
    <message>
        <source>total at most</source>
        <translation>合计最多</translation>
    </message>
    <message>
        <source>ShareGPT filters</source>
        <translation>ShareGPT 过滤</translation>
    </message>
    <message>
        <source>The length filters of the reference benchmark, on the dataset&apos;s token counts (dataset sharegpt).</source>
        <translation>参考基准的长度过滤，基于数据集的 token 数（数据集 sharegpt）。</translation>
    </message>
    <message>
        <source>skip them and report how many</source>
        <translation>跳过并报告数量</translation>
    </message>
    <message>
        <source>fail at the first</source>
        <translation>遇到第一行即失败</translation>
    </message>
    <message>
        <source>Bad lines</source>
        <translation>无效行</translation>
    </message>
    <message>
        <source>Replay speed</source>
        <translation>回放速度</translation>
    </message>
    <message>
        <source> ×</source>
        <translation> ×</translation>
    </message>
    <message>
        <source>e.g. 0, 256, 512, 1024, 2048</source>
        <translation>例如 0, 256, 512, 1024, 2048</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number of tokens</source>
        <translation>&quot;%1&quot; 不是整数个 token</translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation>提示词 token</translation>
    </message>
    <message>
        <source>Length buckets</source>
        <translation>长度分组</translation>
    </message>
    <message>
        <source>Edges of the prompt-length buckets the results are also reported by (the &quot;By length&quot; tab); the last bucket has no upper end.</source>
        <translation>按提示词长度分组的边界，结果也按这些分组报告（“按长度”标签页）；最后一组没有上限。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a field or list element, then what is wrong with it</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Storing the key in the keychain</source>
        <translation>正在将密钥存入钥匙串</translation>
    </message>
    <message>
        <source>random: synthetic prompts of the lengths below. sharegpt: a ShareGPT JSON file. jsonl: one JSON object per line. replay: a request log replayed at its own timestamps. shared-prefix: synthetic prompts in groups that share a prefix (prefix caching). mooncake: an agent trace of input and output lengths and hash ids of shared blocks, replayed at its own timestamps.</source>
        <translation>random：下方长度的合成提示词。sharegpt：ShareGPT JSON 文件。jsonl：每行一个 JSON 对象。replay：按自身时间戳回放的请求日志。shared-prefix：按组共享前缀的合成提示词（前缀缓存）。mooncake：记录输入输出长度和共享块哈希 ID 的智能体跟踪，按自身时间戳回放。</translation>
    </message>
    <message>
        <source>required for sharegpt, jsonl, replay and mooncake</source>
        <translation>sharegpt、jsonl、replay 和 mooncake 必填</translation>
    </message>
    <message>
        <source>The dataset file; required for sharegpt, jsonl, replay and mooncake. A relative path is relative to the working directory.</source>
        <translation>数据集文件；sharegpt、jsonl、replay 和 mooncake 必填。相对路径相对于工作目录。</translation>
    </message>
    <message>
        <source>jsonl/replay/mooncake, and malformed conversations: what a line that is not usable does.</source>
        <translation>jsonl/replay/mooncake 以及格式错误的对话：不可用的行如何处理。</translation>
    </message>
    <message>
        <source>replay, mooncake: the log&apos;s time runs this many times faster (in steps at rate inf; a step at a finite rate scales the log to that mean rate instead).</source>
        <translation>replay、mooncake：日志时间加快的倍数（用于速率为 inf 的步骤；速率有限的步骤则把日志缩放到该平均速率）。</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Send each conversation as a session, turn by turn</source>
        <translation>把每个对话作为会话逐轮发送</translation>
    </message>
    <message>
        <source>sharegpt, jsonl, random: each conversation&apos;s user turns are sent in order, each request carrying the history so far. The rate or concurrency applies to session starts; prompts per step still counts requests (turns).</source>
        <translation>sharegpt、jsonl、random：按顺序发送每个对话的用户轮次，每个请求携带到目前为止的历史。速率或并发数作用于会话的开始；每步提示词数仍按请求（轮次）计数。</translation>
    </message>
    <message>
        <source>think time</source>
        <translation>思考时间</translation>
    </message>
    <message>
        <source>Mean pause between an answer&apos;s end and the next turn (exponentially distributed; 0: none).</source>
        <translation>回答结束到下一轮之间的平均停顿（指数分布；0：无停顿）。</translation>
    </message>
    <message>
        <source>turns</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>random: turns per synthetic session.</source>
        <translation>random：每个合成会话的轮次数。</translation>
    </message>
    <message>
        <source>system prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>random: a system prompt of this length, the same text for every session, so that a prefix cache can share it.</source>
        <translation>random：此长度的系统提示词，所有会话文本相同，以便前缀缓存共享。</translation>
    </message>
    <message>
        <source>Multi-turn sessions: chat traffic, where every turn resends the history and the server&apos;s prefix cache serves most of it.</source>
        <translation>多轮会话：聊天流量，每一轮都重新发送历史，其中大部分由服务器的前缀缓存提供。</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>the dataset&apos;s recorded answers</source>
        <translation>数据集记录的回答</translation>
    </message>
    <message>
        <source>the server&apos;s live answers</source>
        <translation>服务器的实时回答</translation>
    </message>
    <message>
        <source>Multi-turn: the assistant answers a later turn&apos;s history carries.</source>
        <translation>多轮：后续轮次的历史中携带的助手回答。</translation>
    </message>
    <message>
        <source>Max model length</source>
        <translation>最大模型长度</translation>
    </message>
    <message>
        <source>mooncake: a trace line whose input and output lengths together exceed this is a bad line.</source>
        <translation>mooncake：输入与输出长度之和超过此值的跟踪行视为无效行。</translation>
    </message>
    <message>
        <source>repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>Run the loads below this many more times, to show their spread (confidence intervals over the repeats).</source>
        <translation>将下面选定的负载再运行这么多次，以显示其波动（基于重复的置信区间）。</translation>
    </message>
    <message>
        <source>Repeated loads</source>
        <translation>重复的负载</translation>
    </message>
    <message>
        <source>the highest load that met the SLO</source>
        <translation>满足 SLO 的最高负载</translation>
    </message>
    <message>
        <source>every load of the pass</source>
        <translation>本轮的每个负载</translation>
    </message>
    <message>
        <source>Which loads the repeats run: the best one (needs an SLO), or every load, round by round after the pass.</source>
        <translation>重复运行哪些负载：最佳负载（需要 SLO），或在本轮结束后逐轮运行每个负载。</translation>
    </message>
    <message>
        <source>Own percentiles</source>
        <translation>各自的百分位</translation>
    </message>
    <message>
        <source>The TTFT limit&apos;s own percentile, in (0, 100]; unset: the percentile below.</source>
        <translation>TTFT 上限自己的百分位，取值 (0, 100]；未设置时使用下面的百分位。</translation>
    </message>
    <message>
        <source>The TPOT limit&apos;s own percentile, in (0, 100]; unset: the percentile below.</source>
        <translation>TPOT 上限自己的百分位，取值 (0, 100]；未设置时使用下面的百分位。</translation>
    </message>
    <message>
        <source>The E2EL limit&apos;s own percentile, in (0, 100]; unset: the percentile below.</source>
        <translation>E2EL 上限自己的百分位，取值 (0, 100]；未设置时使用下面的百分位。</translation>
    </message>
    <message>
        <source>Each limit may have its own percentile: P90 TTFT and P99 TPOT.</source>
        <translation>每个上限可以有自己的百分位：例如 P90 TTFT 和 P99 TPOT。</translation>
    </message>
    <message>
        <source>The percentile of every limit without its own, in (0, 100].</source>
        <translation>未设置自己百分位的上限所用的百分位，取值 (0, 100]。</translation>
    </message>
    <message>
        <source>Metrics URLs</source>
        <translation>指标 URL 列表</translation>
    </message>
    <message>
        <source>several: one URL per line (replicas, GPU exporters)</source>
        <translation>多个：每行一个 URL（副本、GPU 导出器）</translation>
    </message>
    <message>
        <source>Several Prometheus metrics URLs, one per line or comma-separated: the model servers behind a load balancer and GPU exporters (NVIDIA DCGM, AMD). Each is read and kept apart; their figures are added up or averaged. Used instead of the URL above, which then stays empty.</source>
        <translation>多个 Prometheus 指标 URL，每行一个或以逗号分隔：负载均衡器后的各模型服务器以及 GPU 导出器（NVIDIA DCGM、AMD）。每个 URL 单独读取并分开保存；其数据相加或取平均。使用时代替上面的 URL，上面的 URL 须留空。</translation>
    </message>
    <message>
        <source>openai-responses — Responses API</source>
        <translation>openai-responses — Responses API</translation>
    </message>
    <message>
        <source>anthropic-messages — Anthropic Messages API</source>
        <translation>anthropic-messages — Anthropic Messages API</translation>
    </message>
    <message>
        <source>openai-embeddings — embeddings</source>
        <translation>openai-embeddings — 嵌入</translation>
    </message>
    <message>
        <source>openai: POST /v1/completions. openai-chat: POST /v1/chat/completions. vllm: vLLM&apos;s completions server (same wire format as openai). openai-responses: POST /v1/responses. anthropic-messages: POST /v1/messages, the key sent as x-api-key. openai-embeddings: POST /v1/embeddings, never streamed.</source>
        <translation>openai：POST /v1/completions。openai-chat：POST /v1/chat/completions。vllm：vLLM 的补全服务（与 openai 协议格式相同）。openai-responses：POST /v1/responses。anthropic-messages：POST /v1/messages，密钥通过 x-api-key 发送。openai-embeddings：POST /v1/embeddings，从不流式。</translation>
    </message>
    <message>
        <source>Stream answers</source>
        <translation>流式返回回答</translation>
    </message>
    <message>
        <source>Off: whole answers (stream: false). E2EL and throughput are measured; TTFT, TPOT and ITL are unknown.</source>
        <translation>关闭：返回完整回答（stream: false）。测量 E2EL 和吞吐量；TTFT、TPOT 和 ITL 未知。</translation>
    </message>
    <message>
        <source>Embedding batch</source>
        <translation>嵌入批大小</translation>
    </message>
    <message>
        <source>prompts per request</source>
        <translation>每个请求的提示数</translation>
    </message>
    <message>
        <source>openai-embeddings: prompts sent together in each request&apos;s input.</source>
        <translation>openai-embeddings：每个请求的 input 中一起发送的提示数。</translation>
    </message>
    <message>
        <source>TTFC</source>
        <translation>TTFC</translation>
    </message>
    <message>
        <source>Time to first content token: to a reasoning model&apos;s first answer token, after its thinking, ms (&gt; 0).</source>
        <translation>首个内容 token 时间：到推理模型思考之后的第一个回答 token，单位 ms（&gt; 0）。</translation>
    </message>
    <message>
        <source>The TTFC limit&apos;s own percentile, in (0, 100]; unset: the percentile below.</source>
        <translation>TTFC 上限自己的百分位，取值 (0, 100]；未设置时使用下面的百分位。</translation>
    </message>
    <message>
        <source>Length shapes</source>
        <translation>长度分布</translation>
    </message>
    <message>
        <source>uniform (spread)</source>
        <translation>均匀（按分散度）</translation>
    </message>
    <message>
        <source>fixed</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>normal</source>
        <translation>正态</translation>
    </message>
    <message>
        <source>lognormal</source>
        <translation>对数正态</translation>
    </message>
    <message>
        <source>random, shared-prefix: how prompt lengths are drawn around the input length: uniform within the spread, all equal, or normal or lognormal with the standard deviation beside.</source>
        <translation>random、shared-prefix：提示长度围绕输入长度的抽取方式：在分散度内均匀、全部相同，或按旁边的标准差取正态或对数正态。</translation>
    </message>
    <message>
        <source>input std</source>
        <translation>输入标准差</translation>
    </message>
    <message>
        <source>Standard deviation of normal or lognormal prompt lengths, tokens; required for those shapes.</source>
        <translation>正态或对数正态提示长度的标准差（token）；这两种分布必填。</translation>
    </message>
    <message>
        <source>random, shared-prefix: how output lengths (max_tokens) are drawn around the output length.</source>
        <translation>random、shared-prefix：输出长度（max_tokens）围绕输出长度的抽取方式。</translation>
    </message>
    <message>
        <source>output std</source>
        <translation>输出标准差</translation>
    </message>
    <message>
        <source>Standard deviation of normal or lognormal output lengths, tokens; required for those shapes.</source>
        <translation>正态或对数正态输出长度的标准差（token）；这两种分布必填。</translation>
    </message>
    <message>
        <source>Shapes of the synthetic prompts&apos; and answers&apos; length distributions.</source>
        <translation>合成提示与回答的长度分布形状。</translation>
    </message>
    <message>
        <source>Model mix</source>
        <translation>模型混合</translation>
    </message>
    <message>
        <source>e.g. base:0.7,lora-a:0.3; empty: the target&apos;s model</source>
        <translation>如 base:0.7,lora-a:0.3；留空：使用目标的模型</translation>
    </message>
    <message>
        <source>Spread each step&apos;s requests over several model names by weight (LoRA adapters behind one server); each step reports per model.</source>
        <translation>按权重把每个步骤的请求分配到多个模型名（同一服务器后的 LoRA 适配器）；每个步骤按模型分别报告。</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>per request</source>
        <translation>每个请求</translation>
    </message>
    <message>
        <source>Images attached to each chat request (openai-chat, openai-responses, anthropic-messages), for vision models.</source>
        <translation>附加到每个聊天请求的图像（openai-chat、openai-responses、anthropic-messages），用于视觉模型。</translation>
    </message>
    <message>
        <source>e.g. 448x448</source>
        <translation>如 448x448</translation>
    </message>
    <message>
        <source>size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Synthetic images&apos; width x height in pixels; each prompt gets its own images, the same on every run of the seed.</source>
        <translation>合成图像的宽 x 高（像素）；每个提示有自己的图像，同一种子每次运行都相同。</translation>
    </message>
    <message>
        <source>PNG</source>
        <translation>PNG</translation>
    </message>
    <message>
        <source>JPEG</source>
        <translation>JPEG</translation>
    </message>
    <message>
        <source>format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>The synthetic images&apos; format.</source>
        <translation>合成图像的格式。</translation>
    </message>
    <message>
        <source>Images in each request; the server counts their tokens in its prompt tokens, which the results then use.</source>
        <translation>每个请求中的图像；服务器把它们的 token 计入提示 token，结果随后采用该计数。</translation>
    </message>
    <message>
        <source>Image folder</source>
        <translation>图像文件夹</translation>
    </message>
    <message>
        <source>empty: synthetic images</source>
        <translation>留空：合成图像</translation>
    </message>
    <message>
        <source>Attach this folder&apos;s images instead (PNG, JPEG, WebP or GIF; sorted by name, cycled by prompt).</source>
        <translation>改为附加此文件夹中的图像（PNG、JPEG、WebP 或 GIF；按名称排序，按提示循环使用）。</translation>
    </message>
    <message>
        <source>Prompt pool</source>
        <translation>提示词池</translation>
    </message>
    <message>
        <source> prompts</source>
        <translation> 个提示词</translation>
    </message>
    <message>
        <source>fresh prompts</source>
        <translation>全新提示词</translation>
    </message>
    <message>
        <source>fresh prompts: every request of the run sends a prompt no earlier request sent. N: the requests draw from the dataset&apos;s first N prompts (sessions, with multi-turn) over and over, so prompts repeat and a prefix-caching server looks faster than under real traffic. Not used by replay and mooncake, which send their log as recorded.</source>
        <translation>全新提示词：本次运行的每个请求都发送此前没有请求发送过的提示词。N：请求反复从数据集的前 N 个提示词（多轮时为会话）中抽取，提示词因此重复，启用前缀缓存的服务器会显得比真实流量下更快。replay 和 mooncake 不使用此项，它们按记录发送日志。</translation>
    </message>
    <message>
        <source>Reset the server&apos;s prefix cache between steps</source>
        <translation>在各步之间重置服务器的前缀缓存</translation>
    </message>
    <message>
        <source>Before every step after the first, POST /reset_prefix_cache (vLLM, served only with VLLM_SERVER_DEV_MODE=1), else /flush_cache (SGLang), so that no step is answered from prompts an earlier step cached. A server that refuses both gets one note and no further tries.</source>
        <translation>从第二步起，每步之前 POST /reset_prefix_cache（vLLM，仅在 VLLM_SERVER_DEV_MODE=1 时提供），否则 POST /flush_cache（SGLang），使任何一步都不会由先前步骤缓存的提示词来应答。两者都拒绝的服务器只记一条提示，之后不再尝试。</translation>
    </message>
    <message>
        <source>Server sweep</source>
        <translation>服务器扫描</translation>
    </message>
    <message>
        <source>Server command</source>
        <translation>服务器命令</translation>
    </message>
    <message>
        <source>vllm serve MODEL --port {port} --max-num-seqs {max_num_seqs}</source>
        <translation>vllm serve MODEL --port {port} --max-num-seqs {max_num_seqs}</translation>
    </message>
    <message>
        <source>Run once per combination of the parameters below: {name} is a parameter&apos;s value, {port} a free port that the base URL then uses. Each combination is one run; kneepoint-cli sweep starts the server, waits until it answers, sweeps it and stops it.</source>
        <translation>对下列参数的每种组合各运行一次：{name} 为参数值，{port} 为一个空闲端口，基础 URL 随之使用该端口。每种组合是一次运行；kneepoint-cli sweep 启动服务器，等待其应答，进行扫描，然后停止它。</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>max_num_seqs = 64, 128, 256</source>
        <translation>max_num_seqs = 64, 128, 256</translation>
    </message>
    <message>
        <source>One parameter per line: its name, =, and its values separated by commas.</source>
        <translation>每行一个参数：名称、=，以及以逗号分隔的取值。</translation>
    </message>
    <message>
        <source>process — Kneepoint starts the server and stops its process group</source>
        <translation>process — 由 Kneepoint 启动服务器并停止其进程组</translation>
    </message>
    <message>
        <source>commands — a start and a stop command (docker, kubectl, systemd)</source>
        <translation>commands — 一条启动命令和一条停止命令 (docker、kubectl、systemd)</translation>
    </message>
    <message>
        <source>process: the command is the server, stopped with SIGTERM and, after the grace period, SIGKILL. commands: the command brings the server up and ends; the stop command takes it down.</source>
        <translation>process：命令即服务器，先以 SIGTERM 停止，宽限期过后以 SIGKILL。commands：命令启动服务器后结束；停止命令将其关闭。</translation>
    </message>
    <message>
        <source>Stop command</source>
        <translation>停止命令</translation>
    </message>
    <message>
        <source>docker stop vllm</source>
        <translation>docker stop vllm</translation>
    </message>
    <message>
        <source>The commands mode only: run after each combination&apos;s sweep.</source>
        <translation>仅用于 commands 模式：在每种组合扫描之后运行。</translation>
    </message>
    <message>
        <source>Waits</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>ready within</source>
        <translation>就绪时限</translation>
    </message>
    <message>
        <source>How long the base URL may take to answer /health or /v1/models.</source>
        <translation>基础 URL 应答 /health 或 /v1/models 的最长时间。</translation>
    </message>
    <message>
        <source>grace</source>
        <translation>宽限</translation>
    </message>
    <message>
        <source>How long the server has to stop after SIGTERM, before SIGKILL.</source>
        <translation>SIGTERM 之后、SIGKILL 之前服务器用于停止的时间。</translation>
    </message>
    <message>
        <source>Large models take minutes to load.</source>
        <translation>大模型需要数分钟加载。</translation>
    </message>
</context>
<context>
    <name>kp::ui::ProfileLibrary</name>
    <message>
        <source>cannot create the profile folder %1</source>
        <translation>无法创建配置文件夹 %1</translation>
    </message>
</context>
<context>
    <name>kp::ui::ProfilePage</name>
    <message>
        <source>the nested layout (%1)</source>
        <translation>嵌套布局（%1）</translation>
    </message>
    <message>
        <source>the flat layout (%1)</source>
        <translation>扁平布局（%1）</translation>
    </message>
    <message>
        <source>the [service]/[load]/[engine] layout (%1)</source>
        <translation>[service]/[load]/[engine] 布局（%1）</translation>
    </message>
    <message>
        <source>Kneepoint&apos;s schema in %1</source>
        <translation>Kneepoint 的 %1 格式</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The profile “%1” has unsaved changes.</source>
        <translation>配置“%1”有未保存的更改。</translation>
    </message>
    <message>
        <source>Save them?</source>
        <translation>是否保存？</translation>
    </message>
    <message>
        <source>%1 Discard them?</source>
        <translation>%1 是否放弃这些更改？</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>运行扫描</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>A new profile in the library</source>
        <translation>在配置库中新建配置</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>A copy of the selected profile, as saved</source>
        <translation>所选配置（已保存版本）的副本</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Rename the selected profile (F2)</source>
        <translation>重命名所选配置（F2）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected profile&apos;s file</source>
        <translation>删除所选配置的文件</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Open a profile file (JSON or TOML)</source>
        <translation>打开配置文件（JSON 或 TOML）</translation>
    </message>
    <message>
        <source>Recent</source>
        <translation>最近</translation>
    </message>
    <message>
        <source>Recently opened profile files</source>
        <translation>最近打开的配置文件</translation>
    </message>
    <message>
        <source>No profiles yet.</source>
        <translation>还没有配置。</translation>
    </message>
    <message>
        <source>Use the demo profile (built-in simulator)</source>
        <translation>使用演示配置（内置模拟器）</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>新建配置</translation>
    </message>
    <message>
        <source>Open a profile file…</source>
        <translation>打开配置文件…</translation>
    </message>
    <message>
        <source>The JSON tab has errors. The form shows the last profile that could be read and stays read-only until they are fixed.</source>
        <translation>JSON 标签页有错误。表单显示最后一次能读取的配置，在错误修正前保持只读。</translation>
    </message>
    <message>
        <source>Discard JSON edits</source>
        <translation>放弃 JSON 修改</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Plan preview</source>
        <translation>计划预览</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Cannot duplicate: %1</source>
        <translation>无法复制：%1</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message>
        <source>Cannot rename: %1</source>
        <translation>无法重命名：%1</translation>
    </message>
    <message>
        <source>Renamed: saved as %1 in Kneepoint&apos;s schema; the original %2 is kept.</source>
        <translation>已重命名：以 Kneepoint 格式保存为 %1；原文件 %2 保留。</translation>
    </message>
    <message>
        <source>Delete profile</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <source>Delete the profile “%1”?</source>
        <translation>删除配置“%1”？</translation>
    </message>
    <message>
        <source>The file %1 is removed.</source>
        <translation>文件 %1 将被删除。</translation>
    </message>
    <message>
        <source>Cannot delete %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <source>Deleted %1.</source>
        <translation>已删除 %1。</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近文件</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Open profile</source>
        <translation>打开配置</translation>
    </message>
    <message>
        <source>Profiles (*.json *.toml);;JSON (*.json);;TOML (*.toml);;All files (*)</source>
        <translation>配置文件 (*.json *.toml);;JSON (*.json);;TOML (*.toml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Read from %1. Saving writes Kneepoint&apos;s JSON schema to %2 next to it; the original is left as it is (Save As… chooses another place).</source>
        <translation>从 %1 读取。保存时会以 Kneepoint 的 JSON 格式写到旁边的 %2；原文件保持不变（“另存为…”可选择其他位置）。</translation>
    </message>
    <message>
        <source>Read with a warning: %1</source>
        <translation>读取时有一个警告：%1</translation>
    </message>
    <message>
        <source>Read with %1 warnings; the JSON tab lists them.</source>
        <translation>读取时有 %1 个警告；JSON 标签页列出了它们。</translation>
    </message>
    <message>
        <source>%1 cannot be used: %2</source>
        <translation>%1 无法使用：%2</translation>
    </message>
    <message>
        <source>%1 cannot be used: %2 errors; the JSON tab lists them.</source>
        <translation>%1 无法使用：%2 个错误；JSON 标签页列出了它们。</translation>
    </message>
    <message>
        <source>The JSON tab has errors; fix them, or discard the JSON edits, before saving.</source>
        <translation>JSON 标签页有错误；保存前请修正错误或放弃 JSON 修改。</translation>
    </message>
    <message>
        <source>%1 cannot be read; correct it before saving.</source>
        <translation>%1 无法读取；保存前请先修正。</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>已保存到 %1。</translation>
    </message>
    <message>
        <source>Saved to %1, with problems that stop it from running: %2</source>
        <translation>已保存到 %1，但存在导致无法运行的问题：%2</translation>
    </message>
    <message>
        <source>Save profile as</source>
        <translation>配置另存为</translation>
    </message>
    <message>
        <source>Kneepoint profiles (*.json)</source>
        <translation>Kneepoint 配置 (*.json)</translation>
    </message>
    <message>
        <source>The API key is shown as %1; leave it so to keep the key, or write a new one.</source>
        <translation>API 密钥显示为 %1；保持不变即保留原密钥，或填写新的密钥。</translation>
    </message>
    <message>
        <source>Run the sweep with this profile (unsaved edits included)</source>
        <translation>使用此配置运行扫描（包括未保存的修改）</translation>
    </message>
    <message>
        <source>The profile has problems; they are shown at their fields.</source>
        <translation>配置有问题；已在对应字段处显示。</translation>
    </message>
    <message>
        <source>✗ the JSON has errors</source>
        <translation>✗ JSON 有错误</translation>
    </message>
    <message>
        <source>✗ 1 problem</source>
        <translation>✗ 1 个问题</translation>
    </message>
    <message>
        <source>✗ %1 problems</source>
        <translation>✗ %1 个问题</translation>
    </message>
    <message>
        <source>✓ ready to run</source>
        <translation>✓ 可以运行</translation>
    </message>
    <message>
        <source>No profile to plan yet.</source>
        <translation>还没有可规划的配置。</translation>
    </message>
    <message>
        <source>The plan appears once this is fixed: %1</source>
        <translation>修正以下问题后会显示计划：%1</translation>
    </message>
    <message>
        <source>%1 •</source>
        <translation>%1 •</translation>
    </message>
    <message>
        <source>not saved yet</source>
        <translation>尚未保存</translation>
    </message>
    <message>
        <source>%1 (saves to %2)</source>
        <translation>%1（保存到 %2）</translation>
    </message>
    <message>
        <source>%1 was removed or renamed on disk; Save writes it again.</source>
        <translation>%1 已在磁盘上被删除或重命名；保存会重新写入它。</translation>
    </message>
    <message>
        <source>Reloaded %1: it changed on disk.</source>
        <translation>已重新加载 %1：它在磁盘上已被修改。</translation>
    </message>
    <message>
        <source>Profile changed on disk</source>
        <translation>配置文件已在磁盘上被修改</translation>
    </message>
    <message>
        <source>“%1” was changed on disk by another program while you were editing it.</source>
        <translation>你编辑“%1”期间，另一个程序在磁盘上修改了它。</translation>
    </message>
    <message>
        <source>Reload it and lose your unsaved edits, or keep your version (saving it replaces the file; the previous version is kept as %1.bak).</source>
        <translation>重新加载将丢失未保存的修改；或保留你的版本（保存时会替换该文件，之前的版本保留为 %1.bak）。</translation>
    </message>
    <message>
        <source>Reload from Disk</source>
        <translation>从磁盘重新加载</translation>
    </message>
    <message>
        <source>Keep My Edits</source>
        <translation>保留我的修改</translation>
    </message>
    <message>
        <source>Cannot read the profile: %1</source>
        <translation>无法读取配置文件：%1</translation>
    </message>
    <message>
        <source>Saved to %1, with a warning: %2</source>
        <translation>已保存到 %1，但有一条警告：%2</translation>
    </message>
    <message>
        <source>Reading the last run&apos;s server</source>
        <translation>正在读取上次运行的服务器</translation>
    </message>
</context>
<context>
    <name>kp::ui::ReportDoc</name>
    <message>
        <source>en</source>
        <comment>the language of reports, as an HTML lang attribute: the BCP 47 tag of this translation</comment>
        <translation>zh-CN</translation>
    </message>
</context>
<context>
    <name>kp::ui::RunExportActions</name>
    <message>
        <source>Cop&amp;y chart</source>
        <translation>复制图表(&amp;Y)</translation>
    </message>
    <message>
        <source>Export &amp;report…</source>
        <translation>导出报告(&amp;R)…</translation>
    </message>
    <message>
        <source>The load–latency or throughput chart as PNG (1× or 2×), SVG or PDF (Ctrl+E)</source>
        <translation>将负载–延迟图或吞吐量图导出为 PNG（1× 或 2×）、SVG 或 PDF（Ctrl+E）</translation>
    </message>
    <message>
        <source>The load–latency chart as an image on the clipboard</source>
        <translation>将负载–延迟图作为图片复制到剪贴板</translation>
    </message>
    <message>
        <source>The run&apos;s report (HTML, Markdown, PDF) or its steps table (CSV, JSON), with no network references</source>
        <translation>运行报告（HTML、Markdown、PDF）或其步骤表（CSV、JSON），不含任何网络引用</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PNG image at 2× for slides (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;2× PNG 图片（用于幻灯片） (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>HTML, self-contained (*.html);;Markdown with PNG charts beside it (*.md);;PDF (*.pdf);;Steps table as CSV (*.csv);;Steps table as JSON (*.json)</source>
        <translation>HTML，独立文件 (*.html);;Markdown 及同目录 PNG 图表 (*.md);;PDF (*.pdf);;步骤表 CSV (*.csv);;步骤表 JSON (*.json)</translation>
    </message>
    <message>
        <source>Export load–latency &amp;chart…</source>
        <translation>导出负载–延迟图(&amp;C)…</translation>
    </message>
    <message>
        <source>Export &amp;throughput chart…</source>
        <translation>导出吞吐量图(&amp;T)…</translation>
    </message>
    <message>
        <source>The throughput chart as PNG (1× or 2×), SVG or PDF</source>
        <translation>将吞吐量图导出为 PNG（1× 或 2×）、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Export &amp;prefix-cache chart…</source>
        <translation>导出前缀缓存图(&amp;P)…</translation>
    </message>
    <message>
        <source>The prefix-cache hit-rate chart as PNG (1× or 2×), SVG or PDF</source>
        <translation>将前缀缓存命中率图导出为 PNG（1× 或 2×）、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Export Pa&amp;reto chart…</source>
        <translation>导出帕累托图(&amp;R)…</translation>
    </message>
    <message>
        <source>Output tok/s per user against per GPU, the Pareto front marked, as PNG, SVG or PDF</source>
        <translation>将每用户与每 GPU 输出 tok/s 图（标出帕累托前沿）导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Export &amp;GPU chart…</source>
        <translation>导出 GPU 图(&amp;G)…</translation>
    </message>
    <message>
        <source>GPU utilisation and memory against load as PNG (1× or 2×), SVG or PDF</source>
        <translation>将 GPU 利用率与显存随负载的变化导出为 PNG（1× 或 2×）、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>正在读取 %1</translation>
    </message>
</context>
<context>
    <name>kp::ui::RunMeta</name>
    <message>
        <source>predicted, not measured</source>
        <translation>预测，非实测</translation>
    </message>
</context>
<context>
    <name>kp::ui::RunPage</name>
    <message>
        <source>Repeat step</source>
        <translation>重复步骤</translation>
    </message>
    <message>
        <source>Add step between</source>
        <translation>在中间添加步骤</translation>
    </message>
    <message>
        <source>Run the selected step&apos;s load again, next (measures its spread)</source>
        <translation>接下来再次运行所选步骤的负载（用于测量波动）</translation>
    </message>
    <message>
        <source>Run a load halfway between the two selected steps (or the selected one and the next higher), next</source>
        <translation>接下来运行位于所选两步（或所选步骤与下一个更高负载）中间的负载</translation>
    </message>
    <message>
        <source>Click a sentence to mark what it is about on the charts</source>
        <translation>点击一句话可在图表上标出它所指的内容</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Analysis</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Select steps to repeat one or add a load between two while the sweep runs.</source>
        <translation>扫描运行时，选择步骤即可重复某一步或在两步之间添加负载。</translation>
    </message>
    <message>
        <source>Errors (%1)</source>
        <translation>错误（%1）</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步（共 %2 步）</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>knee %1 %2</source>
        <translation>拐点 %1 %2</translation>
    </message>
    <message>
        <source>SLO capacity %1%2 %3</source>
        <translation>SLO 容量 %1%2 %3</translation>
    </message>
    <message>
        <source>Ready: pick a profile and press Run (Ctrl+R).</source>
        <translation>就绪：选择一个配置并点击运行（Ctrl+R）。</translation>
    </message>
    <message>
        <source>Preparing: starting the target and checking that it answers…</source>
        <translation>准备中：正在启动目标并检查其是否响应…</translation>
    </message>
    <message>
        <source>warming up</source>
        <translation>预热中</translation>
    </message>
    <message>
        <source>%1/%2 requests</source>
        <translation>%1/%2 个请求</translation>
    </message>
    <message>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source>%1 in flight</source>
        <translation>%1 个在途</translation>
    </message>
    <message>
        <source>Between steps</source>
        <translation>两步之间</translation>
    </message>
    <message>
        <source>%1 elapsed</source>
        <translation>已用时 %1</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>预计剩余 %1</translation>
    </message>
    <message>
        <source>this step ends in %1</source>
        <translation>本步 %1 后结束</translation>
    </message>
    <message>
        <source>pausing after this step</source>
        <translation>本步结束后暂停</translation>
    </message>
    <message>
        <source>stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Paused after step %1</source>
        <translation>已在第 %1 步后暂停</translation>
    </message>
    <message>
        <source>Resume to go on, or Stop to end the sweep</source>
        <translation>点击继续以继续扫描，或点击停止以结束扫描</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>已完成：%1</translation>
    </message>
    <message>
        <source>Stopped: %1 kept</source>
        <translation>已停止：保留 %1</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>用时 %1</translation>
    </message>
    <message>
        <source>open the run folder</source>
        <translation>打开运行目录</translation>
    </message>
    <message>
        <source>Failed:</source>
        <translation>失败：</translation>
    </message>
    <message>
        <source>details in the Log tab</source>
        <translation>详情见日志标签页</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>e.g. 1000 req/s or 250k tok/s</source>
        <translation>例如 1000 req/s 或 250k tok/s</translation>
    </message>
    <message>
        <source>The peak demand to plan servers for: requests per second (1000, 1000 req/s) or output tokens per second (250k tok/s)</source>
        <translation>要为之规划服务器的峰值需求：每秒请求数（1000、1000 req/s）或每秒输出 token 数（250k tok/s）</translation>
    </message>
    <message>
        <source>e.g. N+2 or 20%</source>
        <translation>例如 N+2 或 20%</translation>
    </message>
    <message>
        <source>Servers added for failures and maintenance: N+k spare servers, or a percentage</source>
        <translation>为故障和维护额外增加的服务器：N+k 台备用，或一个百分比</translation>
    </message>
    <message>
        <source>Capacity plan:</source>
        <translation>容量规划：</translation>
    </message>
    <message>
        <source>peak demand</source>
        <translation>峰值需求</translation>
    </message>
    <message>
        <source>redundancy</source>
        <translation>冗余</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a demand: write 1000, 1000 req/s or 250k tok/s</source>
        <translation>&quot;%1&quot; 不是有效的需求：请写 1000、1000 req/s 或 250k tok/s</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a redundancy: write N+2, 20% or none</source>
        <translation>&quot;%1&quot; 不是有效的冗余：请写 N+2、20% 或 none</translation>
    </message>
    <message>
        <source>Pareto</source>
        <translation>帕累托</translation>
    </message>
    <message>
        <source>Interactivity against throughput per GPU: the steps no other step beats on both</source>
        <translation>交互性与每 GPU 吞吐量：两方面都没有被其他步骤超过的步骤</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Prefix cache</source>
        <translation>前缀缓存</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>假设分析</translation>
    </message>
    <message>
        <source>The server&apos;s twin fitted to the finished run: predict other settings, faster GPUs or more replicas</source>
        <translation>根据已完成的运行拟合服务器的数字孪生：预测其他设置、更快的 GPU 或更多副本</translation>
    </message>
    <message>
        <source>TTFT breakdown</source>
        <translation>TTFT 构成</translation>
    </message>
    <message>
        <source>Soak</source>
        <translation>浸泡测试</translation>
    </message>
    <message>
        <source>The soak&apos;s windows as they close, and its totals</source>
        <translation>浸泡测试各窗口（关闭时显示）及其总计</translation>
    </message>
    <message>
        <source>starting the server</source>
        <translation>正在启动服务器</translation>
    </message>
    <message>
        <source>server ready after %1 s at %2</source>
        <translation>服务器在 %1 秒后就绪，地址 %2</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>stopping the server</source>
        <translation>正在停止服务器</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:%1&quot;&gt;●&lt;/span&gt; &lt;b&gt;Server sweep %2 of %3: %4&lt;/b&gt; · %5</source>
        <translation>&lt;span style=&quot;color:%1&quot;&gt;●&lt;/span&gt; &lt;b&gt;服务器扫描 %2/%3：%4&lt;/b&gt; · %5</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Server sweep stopped&lt;/b&gt; · %n configuration(s) measured</source>
        <translation>
            <numerusform>&lt;b&gt;服务器扫描已停止&lt;/b&gt; · 已测量 %n 个配置</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Server sweep finished&lt;/b&gt; · %n configuration(s) measured</source>
        <translation>
            <numerusform>&lt;b&gt;服务器扫描已完成&lt;/b&gt; · 已测量 %n 个配置</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kp::ui::RunReport</name>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Imported from</source>
        <translation>导入自</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Load mode</source>
        <translation>负载模式</translation>
    </message>
    <message>
        <source>request rate</source>
        <translation>请求速率</translation>
    </message>
    <message>
        <source>concurrency (users)</source>
        <translation>并发（用户数）</translation>
    </message>
    <message>
        <source>SLO</source>
        <translation>SLO</translation>
    </message>
    <message>
        <source>Analysed curve</source>
        <translation>分析的曲线</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>users</source>
        <translation>并发</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>req/s</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Offered (%1)</source>
        <translation>施加负载（%1）</translation>
    </message>
    <message>
        <source>Achieved (req/s)</source>
        <translation>实际 (req/s)</translation>
    </message>
    <message>
        <source>Output (tok/s)</source>
        <translation>输出 (tok/s)</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>依据</translation>
    </message>
    <message>
        <source>Knee (%1 %2)</source>
        <translation>拐点（%1 %2）</translation>
    </message>
    <message>
        <source>Throughput knee</source>
        <translation>吞吐量拐点</translation>
    </message>
    <message>
        <source>Saturation</source>
        <translation>饱和</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>吞吐崩溃</translation>
    </message>
    <message>
        <source>SLO capacity</source>
        <translation>SLO 容量</translation>
    </message>
    <message>
        <source> (bound by %1)</source>
        <translation>（受 %1 约束）</translation>
    </message>
    <message>
        <source>Recommended</source>
        <translation>推荐工作点</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>并发用户数</translation>
    </message>
    <message>
        <source>Offered (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
    <message>
        <source>Purpose</source>
        <translation>目的</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Req/s</source>
        <translation>Req/s</translation>
    </message>
    <message>
        <source>Output tok/s</source>
        <translation>输出 tok/s</translation>
    </message>
    <message>
        <source>TTFT mean (ms)</source>
        <translation>TTFT 均值 (ms)</translation>
    </message>
    <message>
        <source>TTFT P50 (ms)</source>
        <translation>TTFT P50 (ms)</translation>
    </message>
    <message>
        <source>TTFT %1 (ms)</source>
        <translation>TTFT %1 (ms)</translation>
    </message>
    <message>
        <source>TPOT mean (ms)</source>
        <translation>TPOT 均值 (ms)</translation>
    </message>
    <message>
        <source>TPOT %1 (ms)</source>
        <translation>TPOT %1 (ms)</translation>
    </message>
    <message>
        <source>ITL mean (ms)</source>
        <translation>ITL 均值 (ms)</translation>
    </message>
    <message>
        <source>E2EL P50 (ms)</source>
        <translation>E2EL P50 (ms)</translation>
    </message>
    <message>
        <source>E2EL %1 (ms)</source>
        <translation>E2EL %1 (ms)</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Failure</source>
        <translation>失败类型</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>处理建议</translation>
    </message>
    <message>
        <source>Kneepoint report: %1</source>
        <translation>Kneepoint 报告：%1</translation>
    </message>
    <message>
        <source>Knee and capacity</source>
        <translation>拐点与容量</translation>
    </message>
    <message>
        <source>The run has no finished step.</source>
        <translation>该运行没有已完成的步骤。</translation>
    </message>
    <message>
        <source>Peak throughput: %1 req/s.</source>
        <translation>峰值吞吐量：%1 req/s。</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>No step finished.</source>
        <translation>没有步骤完成。</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>No request failed.</source>
        <translation>没有请求失败。</translation>
    </message>
    <message>
        <source>%1 of %2 requests failed (%3).</source>
        <translation>%2 个请求中有 %1 个失败（%3）。</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>The run recorded no client environment.</source>
        <translation>该运行没有记录客户端环境。</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>The profile recorded nothing about the server (its &quot;server&quot; section is empty).</source>
        <translation>配置中没有记录服务器信息（其 &quot;server&quot; 部分为空）。</translation>
    </message>
    <message>
        <source>As recorded in the profile:</source>
        <translation>配置中记录的信息：</translation>
    </message>
    <message>
        <source>As probed:</source>
        <translation>探测到的信息：</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>As run, with secrets removed.</source>
        <translation>运行时使用的配置，已去除密钥。</translation>
    </message>
    <message>
        <source>Summary blocks</source>
        <translation>汇总块</translation>
    </message>
    <message>
        <source>Step %1 · %2</source>
        <translation>第 %1 步 · %2</translation>
    </message>
    <message>
        <source>Running avg / max</source>
        <translation>运行中 平均 / 最大</translation>
    </message>
    <message>
        <source>Waiting avg / max</source>
        <translation>等待中 平均 / 最大</translation>
    </message>
    <message>
        <source>KV cache avg / max</source>
        <translation>KV 缓存 平均 / 最大</translation>
    </message>
    <message>
        <source>Preemptions</source>
        <translation>抢占次数</translation>
    </message>
    <message>
        <source>Server TTFT mean (ms)</source>
        <translation>服务器 TTFT 均值 (ms)</translation>
    </message>
    <message>
        <source>Client TTFT mean (ms)</source>
        <translation>客户端 TTFT 均值 (ms)</translation>
    </message>
    <message>
        <source>Server metrics</source>
        <translation>服务器指标</translation>
    </message>
    <message>
        <source>What the server&apos;s /metrics said while each step ran: requests running and waiting, KV-cache usage, preemptions during the step, and its time to first token next to the client&apos;s.</source>
        <translation>每步运行期间服务器 /metrics 的数据：运行中和等待中的请求数、KV 缓存使用率、该步内的抢占次数，以及服务器统计的首字延迟与客户端测量值的对照。</translation>
    </message>
    <message>
        <source>As the server reported (/version, /v1/models, its metrics&apos; labels):</source>
        <translation>服务器自身报告的信息（/version、/v1/models、指标标签）：</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>client-bound</source>
        <translation>受客户端限制</translation>
    </message>
    <message>
        <source>Capacity plan</source>
        <translation>容量规划</translation>
    </message>
    <message>
        <source>— : the file does not give this figure.</source>
        <translation>— ：文件未给出该数值。</translation>
    </message>
    <message>
        <source>The result files do not say how many requests failed in every step.</source>
        <translation>结果文件并未说明每个步骤中有多少请求失败。</translation>
    </message>
    <message>
        <source>Settings — from the files</source>
        <translation>设置 — 来自文件</translation>
    </message>
    <message>
        <source>The files say nothing about their settings.</source>
        <translation>文件未说明其设置。</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message numerus="yes">
        <source>over %n trials</source>
        <translation>
            <numerusform>基于 %n 次试验</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>bootstrap, %n resamples</source>
        <translation>
            <numerusform>自助法，%n 次重采样</numerusform>
        </translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>No step has its request records (steps/NNN.requests.jsonl), so there is no timeline.</source>
        <translation>没有任何步保存了请求记录（steps/NNN.requests.jsonl），因此没有时间线。</translation>
    </message>
    <message>
        <source>Steps %1, around the knee, second by second (of %2 steps with request records; kneepoint-cli export RUN --timeline writes every step as CSV).</source>
        <translation>拐点附近的第 %1 步，逐秒展示（共 %2 个步有请求记录；kneepoint-cli export RUN --timeline 可将每一步写成 CSV）。</translation>
    </message>
    <message>
        <source>Steps %1, around the highest output throughput, second by second (of %2 steps with request records; kneepoint-cli export RUN --timeline writes every step as CSV).</source>
        <translation>输出吞吐量最高处附近的第 %1 步，逐秒展示（共 %2 个步有请求记录；kneepoint-cli export RUN --timeline 可将每一步写成 CSV）。</translation>
    </message>
    <message>
        <source>Every step second by second: the requests offered, completed and failed, those in flight and the output tokens, then the TTFT and ITL of the requests that ended in each second.</source>
        <translation>逐秒展示每一步：发出、完成和失败的请求，进行中的请求和输出 token，以及每秒内结束的请求的 TTFT 和 ITL。</translation>
    </message>
    <message>
        <source>%1 of %2 steps have no request records and no timeline.</source>
        <translation>%2 个步中有 %1 个没有请求记录，也没有时间线。</translation>
    </message>
    <message>
        <source>Confidence intervals</source>
        <translation>置信区间</translation>
    </message>
    <message>
        <source>95% confidence intervals of each step&apos;s figures: a seeded bootstrap over the step&apos;s requests. A request throughput without failed requests cannot vary under it; repeats (--repeats) measure the spread between trials.</source>
        <translation>每个步骤各项数据的 95% 置信区间：对该步骤的请求做固定种子的自助法（bootstrap）重采样。没有失败请求时，请求吞吐量在重采样下不会变化；重复运行（--repeats）可以衡量多次试验之间的波动。</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Utilisation avg / max</source>
        <translation>利用率 平均 / 最大</translation>
    </message>
    <message>
        <source>Memory max (GiB)</source>
        <translation>显存最大值 (GiB)</translation>
    </message>
    <message>
        <source>Power avg (W)</source>
        <translation>平均功率 (W)</translation>
    </message>
    <message>
        <source>Energy (J)</source>
        <translation>能耗 (J)</translation>
    </message>
    <message>
        <source>J / output token</source>
        <translation>J / 输出 token</translation>
    </message>
    <message>
        <source>Energy from</source>
        <translation>能耗来源</translation>
    </message>
    <message>
        <source>energy counter</source>
        <translation>能耗计数器</translation>
    </message>
    <message>
        <source>mean power × step time</source>
        <translation>平均功率 × 步骤时长</translation>
    </message>
    <message>
        <source>GPUs and energy</source>
        <translation>GPU 与能耗</translation>
    </message>
    <message>
        <source>What the GPU exporter&apos;s metrics said while each step ran: mean and highest utilisation over the GPUs, the fullest GPU&apos;s memory, the GPUs&apos; mean power and the energy they drew during the step (from their energy counters, else mean power times the step&apos;s time), and that energy over the step&apos;s output tokens.</source>
        <translation>GPU 导出器的指标在各步骤运行期间的数据：各 GPU 的平均与最高利用率、占用最多的 GPU 的显存、GPU 的平均功率、步骤期间消耗的能量（取自能耗计数器，否则为平均功率乘以步骤时长），以及该能量除以步骤的输出 token 数。</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Reasoning tokens</source>
        <translation>推理 token 数</translation>
    </message>
    <message>
        <source>TTFC %1 (ms)</source>
        <translation>TTFC %1 (ms)</translation>
    </message>
    <message>
        <source>TTFC P50 (ms)</source>
        <translation>TTFC P50 (ms)</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>No timeline: %1.</source>
        <translation>没有时间线：%1。</translation>
    </message>
</context>
<context>
    <name>kp::ui::RunsModel</name>
    <message>
        <source>%1 (imported from %2)</source>
        <translation>%1（从 %2 导入）</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Knee</source>
        <translation>拐点</translation>
    </message>
    <message>
        <source>SLO capacity</source>
        <translation>SLO 容量</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>%1 (predicted, not measured)</source>
        <translation>%1（预测，非实测）</translation>
    </message>
    <message>
        <source>A twin&apos;s prediction, not a measurement: %1</source>
        <translation>数字孪生的预测，并非实测：%1</translation>
    </message>
    <message>
        <source>Reading the saved runs</source>
        <translation>正在读取已保存的运行</translation>
    </message>
    <message>
        <source>Saving notes</source>
        <translation>正在保存备注</translation>
    </message>
</context>
<context>
    <name>kp::ui::RunsPage</name>
    <message>
        <source>Save notes</source>
        <translation>保存备注</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show the run in the results view: charts, steps, analysis, errors (Enter)</source>
        <translation>在结果视图中显示该运行：图表、步骤、分析、错误（Enter）</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Overlay the selected runs&apos; curves, with deltas against a baseline</source>
        <translation>叠加所选运行的曲线，并给出相对基线的差值</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Tags…</source>
        <translation>标签…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Move the selected runs to the trash (Undo brings them back)</source>
        <translation>将所选运行移到回收站（撤销可恢复）</translation>
    </message>
    <message>
        <source>Undo delete</source>
        <translation>撤销删除</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Filter by name, target, model, tag or status</source>
        <translation>按名称、目标、模型、标签或状态筛选</translation>
    </message>
    <message>
        <source>Notes about the selected run: what changed, what it was for</source>
        <translation>所选运行的备注：改了什么、用途是什么</translation>
    </message>
    <message>
        <source>No saved runs in %1 yet. Run a sweep (Ctrl+R), or drop result files from vLLM, SGLang or GuideLLM on the window to import them.</source>
        <translation>%1 中还没有已保存的运行。运行一次扫描（Ctrl+R），或把 vLLM、SGLang、GuideLLM 的结果文件拖到窗口中导入。</translation>
    </message>
    <message>
        <source>No run matches &quot;%1&quot;.</source>
        <translation>没有与 &quot;%1&quot; 匹配的运行。</translation>
    </message>
    <message>
        <source>Notes · %1</source>
        <translation>备注 · %1</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Moved &quot;%1&quot; to the trash.</source>
        <translation>已将 &quot;%1&quot; 移到回收站。</translation>
    </message>
    <message>
        <source>Moved %1 runs to the trash.</source>
        <translation>已将 %1 个运行移到回收站。</translation>
    </message>
    <message>
        <source>Restored 1 run.</source>
        <translation>已恢复 1 个运行。</translation>
    </message>
    <message>
        <source>Restored %1 runs.</source>
        <translation>已恢复 %1 个运行。</translation>
    </message>
    <message>
        <source>Reading the saved runs in %1…</source>
        <translation>正在读取 %1 中已保存的运行…</translation>
    </message>
</context>
<context>
    <name>kp::ui::ServerChart</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>KV cache %</source>
        <translation>KV 缓存 %</translation>
    </message>
    <message>
        <source>Offered load (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
    <message>
        <source>Time in step (s)</source>
        <translation>步内时间 (s)</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>KV cache (%)</source>
        <translation>KV 缓存 (%)</translation>
    </message>
    <message>
        <source>No server metrics for finished steps yet</source>
        <translation>已完成的步骤还没有服务器指标</translation>
    </message>
    <message>
        <source>No server metrics for this step yet</source>
        <translation>该步骤还没有服务器指标</translation>
    </message>
</context>
<context>
    <name>kp::ui::ServerPanel</name>
    <message>
        <source>Server queue and KV cache against load</source>
        <translation>服务器队列和 KV 缓存随负载的变化</translation>
    </message>
    <message>
        <source>Server during the step</source>
        <translation>本步骤期间的服务器</translation>
    </message>
    <message>
        <source>Server during step %1</source>
        <translation>第 %1 步期间的服务器</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>并发用户数</translation>
    </message>
    <message>
        <source>Offered load (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
    <message>
        <source>No server metrics (%1): the charts stay empty; the sweep measures as usual.</source>
        <translation>没有服务器指标（%1）：图表保持为空；扫描照常测量。</translation>
    </message>
    <message>
        <source>%1 metrics from %2; %3 of %4 steps scraped.</source>
        <translation>从 %2 获取 %1 指标；%4 步中已采集 %3 步。</translation>
    </message>
    <message>
        <source>Server metrics for %1 of %2 steps.</source>
        <translation>%2 步中有 %1 步有服务器指标。</translation>
    </message>
    <message>
        <source>Server metrics appear here while a sweep runs against a server that serves /metrics.</source>
        <translation>对提供 /metrics 的服务器运行扫描时，服务器指标会显示在这里。</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>OS</source>
        <translation>操作系统</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>核心数</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>内存 (MiB)</translation>
    </message>
    <message>
        <source>Kneepoint</source>
        <translation>Kneepoint</translation>
    </message>
    <message>
        <source>Qt</source>
        <translation>Qt</translation>
    </message>
    <message>
        <source>Server, as it reports</source>
        <translation>服务器自身报告的信息</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Model (metrics)</source>
        <translation>模型（指标）</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型列表</translation>
    </message>
    <message>
        <source>max_model_len</source>
        <translation>max_model_len</translation>
    </message>
    <message>
        <source>Owned by</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>Time scale</source>
        <translation>时间缩放</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>Engine version</source>
        <translation>引擎版本</translation>
    </message>
    <message>
        <source>Accelerator</source>
        <translation>加速卡</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>CUDA/ROCm</source>
        <translation>CUDA/ROCm</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>max_num_seqs</source>
        <translation>max_num_seqs</translation>
    </message>
    <message>
        <source>gpu_memory_utilization</source>
        <translation>gpu_memory_utilization</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Server, as the profile says</source>
        <translation>配置中记录的服务器信息</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Metrics URL</source>
        <translation>指标 URL</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>KV max</source>
        <translation>KV 最大</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>GPU util avg / max</source>
        <translation>GPU 利用率 平均 / 最大</translation>
    </message>
    <message>
        <source>GPU memory (GiB)</source>
        <translation>GPU 显存 (GiB)</translation>
    </message>
    <message>
        <source>Power (W)</source>
        <translation>功率 (W)</translation>
    </message>
    <message>
        <source>Energy (J)</source>
        <translation>能耗 (J)</translation>
    </message>
    <message>
        <source>J / output token</source>
        <translation>J / 输出 token</translation>
    </message>
    <message>
        <source>Each metrics URL&apos;s figures apart: a replica whose queue grows or whose KV cache fills before the others&apos; saturates first</source>
        <translation>每个指标 URL 的数据分开列出：队列先增长或 KV 缓存先占满的副本最先饱和</translation>
    </message>
    <message>
        <source>counter</source>
        <translation>计数器</translation>
    </message>
    <message>
        <source>power × time</source>
        <translation>功率 × 时长</translation>
    </message>
    <message>
        <source>all %1</source>
        <translation>全部 %1 个</translation>
    </message>
</context>
<context>
    <name>kp::ui::SoakChart</name>
    <message>
        <source>Soak</source>
        <translation>浸泡测试</translation>
    </message>
    <message>
        <source>req/s each second</source>
        <translation>每秒 req/s</translation>
    </message>
    <message>
        <source>req/s per window</source>
        <translation>每窗口 req/s</translation>
    </message>
    <message>
        <source>failed/s per window</source>
        <translation>每窗口失败数/秒</translation>
    </message>
    <message>
        <source>TTFT P50</source>
        <translation>TTFT P50</translation>
    </message>
    <message>
        <source>TTFT P99</source>
        <translation>TTFT P99</translation>
    </message>
    <message>
        <source>ITL P50</source>
        <translation>ITL P50</translation>
    </message>
    <message>
        <source>ITL P99</source>
        <translation>ITL P99</translation>
    </message>
    <message>
        <source>partial window</source>
        <translation>不完整窗口</translation>
    </message>
    <message>
        <source>Time in soak (s)</source>
        <translation>浸泡测试时间（秒）</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>延迟 (ms)</translation>
    </message>
    <message>
        <source>Requests per second</source>
        <translation>每秒请求数</translation>
    </message>
    <message>
        <source>Each window&apos;s throughput, failures, TTFT and ITL against time, as the windows close.</source>
        <translation>各窗口关闭时，其吞吐量、失败、TTFT 和 ITL 随时间的变化。</translation>
    </message>
</context>
<context>
    <name>kp::ui::SoakPanel</name>
    <message>
        <source>The soak&apos;s windows show here as they close.</source>
        <translation>浸泡测试的窗口关闭后显示在这里。</translation>
    </message>
    <message>
        <source>A soak profile (load mode &quot;soak&quot;) shows its windows here.</source>
        <translation>浸泡测试配置（负载模式 “soak”）的窗口显示在这里。</translation>
    </message>
    <message>
        <source>%1 of %2 windows closed (%3 s each)</source>
        <translation>已关闭 %1/%2 个窗口（每个 %3 秒）</translation>
    </message>
    <message>
        <source>%1 elapsed</source>
        <translation>已用时 %1</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
    <message>
        <source>%1 completed, %2 failed so far</source>
        <translation>目前完成 %1，失败 %2</translation>
    </message>
    <message>
        <source>Soak at %1</source>
        <translation>以 %1 进行浸泡测试</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 s at %2</source>
        <translation>%1 秒，速率 %2</translation>
    </message>
    <message>
        <source>%1 completed, %2 failed</source>
        <translation>完成 %1，失败 %2</translation>
    </message>
    <message>
        <source>%1 completed, %2 failed (%3)</source>
        <translation>完成 %1，失败 %2（%3）</translation>
    </message>
    <message>
        <source>%1 req/s</source>
        <translation>%1 req/s</translation>
    </message>
    <message>
        <source>%1 output tok/s</source>
        <translation>%1 输出 tok/s</translation>
    </message>
    <message>
        <source>mean TTFT %1 ms, ITL %2 ms, E2EL %3 ms</source>
        <translation>平均 TTFT %1 ms，ITL %2 ms，E2EL %3 ms</translation>
    </message>
    <message>
        <source>E2EL max %1 ms</source>
        <translation>E2EL 最大 %1 ms</translation>
    </message>
    <message>
        <source>%1 windows, the last partial</source>
        <translation>%1 个窗口，最后一个不完整</translation>
    </message>
    <message>
        <source>%1 windows</source>
        <translation>%1 个窗口</translation>
    </message>
    <message>
        <source>Whole soak (stopped)</source>
        <translation>整个浸泡测试（已停止）</translation>
    </message>
    <message>
        <source>Whole soak</source>
        <translation>整个浸泡测试</translation>
    </message>
    <message>
        <source>Percentiles are per window: the soak keeps no percentile of all its requests.</source>
        <translation>百分位数按窗口计算：浸泡测试不保留所有请求的百分位数。</translation>
    </message>
    <message>
        <source>No requests per second: %1.</source>
        <translation>无每秒请求数：%1。</translation>
    </message>
</context>
<context>
    <name>kp::ui::SoakWindowFigures</name>
    <message>
        <source>not an object</source>
        <translation>不是对象</translation>
    </message>
    <message>
        <source>%1:%2: the last window is cut short (%3); left out</source>
        <translation>%1:%2：最后一个窗口被截断（%3）；已略去</translation>
    </message>
    <message>
        <source>%1:%2: not a window: %3</source>
        <translation>%1:%2：不是窗口：%3</translation>
    </message>
</context>
<context>
    <name>kp::ui::SoakWindowsModel</name>
    <message>
        <source>%1 (partial)</source>
        <translation>%1（不完整）</translation>
    </message>
    <message>
        <source>%1–%2 s</source>
        <translation>%1 s {1–%2 ?}</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The soak ended inside this window: it is shorter than the others</source>
        <translation>浸泡测试在此窗口内结束：它比其他窗口短</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>req/s</translation>
    </message>
    <message>
        <source>Output tok/s</source>
        <translation>输出 tok/s</translation>
    </message>
    <message>
        <source>TTFT P50 (ms)</source>
        <translation>TTFT P50 (ms)</translation>
    </message>
    <message>
        <source>TTFT P99 (ms)</source>
        <translation>TTFT P50 (ms) {99 ?}</translation>
    </message>
    <message>
        <source>ITL P50 (ms)</source>
        <translation>ITL P50 (ms)</translation>
    </message>
    <message>
        <source>ITL P99 (ms)</source>
        <translation>ITL P99 (ms)</translation>
    </message>
    <message>
        <source>TPOT P50 (ms)</source>
        <translation>TPOT P50 (ms)</translation>
    </message>
    <message>
        <source>TPOT P99 (ms)</source>
        <translation>TPOT P99 (ms)</translation>
    </message>
    <message>
        <source>E2EL P50 (ms)</source>
        <translation>E2EL P50 (ms)</translation>
    </message>
    <message>
        <source>E2EL P99 (ms)</source>
        <translation>E2EL P50 (ms) {2E?} {99 ?}</translation>
    </message>
</context>
<context>
    <name>kp::ui::StepDetails</name>
    <message>
        <source>Select a step to see its summary block.</source>
        <translation>选择一个步骤以查看其汇总块。</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>No step selected</source>
        <translation>未选择步骤</translation>
    </message>
    <message>
        <source>Failures (%1)</source>
        <translation>失败（%1）</translation>
    </message>
    <message>
        <source>By length</source>
        <translation>按长度</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示词 token 数</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Req/s</source>
        <translation>Req/s</translation>
    </message>
    <message>
        <source>Mean TTFT (ms)</source>
        <translation>TTFT 均值 (ms)</translation>
    </message>
    <message>
        <source>P%1 TTFT (ms)</source>
        <translation>P%1 TTFT (ms)</translation>
    </message>
    <message>
        <source>Mean TPOT (ms)</source>
        <translation>TPOT 均值 (ms)</translation>
    </message>
    <message>
        <source>Mean E2EL (ms)</source>
        <translation>E2EL 均值 (ms)</translation>
    </message>
    <message>
        <source>The step&apos;s requests by prompt length (workload.length_buckets)</source>
        <translation>该步的请求按提示词长度分组（workload.length_buckets）</translation>
    </message>
    <message>
        <source>No prompt-length buckets for this step (workload.length_buckets is empty)</source>
        <translation>该步没有提示词长度分组（workload.length_buckets 为空）</translation>
    </message>
    <message>
        <source>Step %1 · %2 · %3</source>
        <translation>第 %1 步 · %2 · %3</translation>
    </message>
    <message>
        <source>By model</source>
        <translation>按模型</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Output tok/s</source>
        <translation>输出 tok/s</translation>
    </message>
    <message>
        <source>Median TTFT (ms)</source>
        <translation>TTFT 中位数 (ms)</translation>
    </message>
    <message>
        <source>P99 TTFT (ms)</source>
        <translation>P99 TTFT (ms)</translation>
    </message>
    <message>
        <source>Median TPOT (ms)</source>
        <translation>TPOT 中位数 (ms)</translation>
    </message>
    <message>
        <source>P99 TPOT (ms)</source>
        <translation>P99 TPOT (ms)</translation>
    </message>
    <message>
        <source>Median E2EL (ms)</source>
        <translation>E2EL 中位数 (ms)</translation>
    </message>
    <message>
        <source>P99 E2EL (ms)</source>
        <translation>P99 E2EL (ms)</translation>
    </message>
    <message>
        <source>The step&apos;s requests by model of the mix (workload.model_mix)</source>
        <translation>该步骤的请求按模型组合中的模型划分 (workload.model_mix)</translation>
    </message>
    <message>
        <source>No model mix in this step (workload.model_mix is empty)</source>
        <translation>该步骤没有模型组合（workload.model_mix 为空）</translation>
    </message>
    <message>
        <source>Means per step; the server&apos;s percentiles (≈) are estimated from its histogram buckets.</source>
        <translation>每步均值；服务器的百分位数 (≈) 由其直方图分桶估算。</translation>
    </message>
    <message>
        <source>TTFT breakdown</source>
        <translation>TTFT 构成</translation>
    </message>
</context>
<context>
    <name>kp::ui::StepFigureChart</name>
    <message>
        <source>knee</source>
        <translation>拐点</translation>
    </message>
    <message>
        <source>Users (concurrency)</source>
        <translation>用户数（并发）</translation>
    </message>
    <message>
        <source>Offered load (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
</context>
<context>
    <name>kp::ui::StepsTableModel</name>
    <message>
        <source>partial</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>client-bound</source>
        <translation>受客户端限制</translation>
    </message>
    <message>
        <source>SLO ✓</source>
        <translation>SLO ✓</translation>
    </message>
    <message>
        <source>SLO ✗</source>
        <translation>SLO ✗</translation>
    </message>
    <message>
        <source>Partial: stopped before every request ended; the analysis leaves it out.</source>
        <translation>不完整：在所有请求结束前被停止；分析不计入此步。</translation>
    </message>
    <message>
        <source>Client-bound: dispatch lag P99 %1 ms; this step measures the client, not the server.</source>
        <translation>受客户端限制：发送延迟 P99 %1 ms；此步测到的是客户端而不是服务器。</translation>
    </message>
    <message>
        <source>Meets the SLO.</source>
        <translation>满足 SLO。</translation>
    </message>
    <message>
        <source>SLO not met: %1</source>
        <translation>未满足 SLO：%1</translation>
    </message>
    <message>
        <source>Completed requests per second of the step&apos;s duration</source>
        <translation>按该步时长计算的每秒完成请求数</translation>
    </message>
    <message>
        <source>Output tokens per second</source>
        <translation>每秒输出 token 数</translation>
    </message>
    <message>
        <source>Time to first token, from sending the request</source>
        <translation>首字延迟，从发出请求开始计时</translation>
    </message>
    <message>
        <source>Time per output token after the first, per request</source>
        <translation>首个 token 之后每个输出 token 的时间，按请求计</translation>
    </message>
    <message>
        <source>Inter-token latency: the gap between two streamed chunks</source>
        <translation>token 间延迟：两个流式数据块之间的间隔</translation>
    </message>
    <message>
        <source>Failed requests (share of all that ended)</source>
        <translation>失败请求（占所有已结束请求的比例）</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Load
(req/s)</source>
        <translation>负载
(req/s)</translation>
    </message>
    <message>
        <source>Users
</source>
        <translation>并发
</translation>
    </message>
    <message>
        <source>RPS
(req/s)</source>
        <translation>RPS
(req/s)</translation>
    </message>
    <message>
        <source>Output
(tok/s)</source>
        <translation>输出
(tok/s)</translation>
    </message>
    <message>
        <source>TTFT mean
(ms)</source>
        <translation>TTFT 均值
(ms)</translation>
    </message>
    <message>
        <source>TTFT %1
(ms)</source>
        <translation>TTFT %1
(ms)</translation>
    </message>
    <message>
        <source>TPOT mean
(ms)</source>
        <translation>TPOT 均值
(ms)</translation>
    </message>
    <message>
        <source>ITL mean
(ms)</source>
        <translation>ITL 均值
(ms)</translation>
    </message>
    <message>
        <source>Errors
</source>
        <translation>错误
</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>incomplete: %1% failed</source>
        <translation>不完整：%1% 失败</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>why a step ran: its purpose, then in detail</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The file does not say how many requests failed.</source>
        <translation>文件未说明有多少请求失败。</translation>
    </message>
    <message>
        <source>%1 completed in %2 s, failures unknown</source>
        <translation>%2 秒内完成 %1 个请求，失败数未知</translation>
    </message>
    <message>
        <source>%1 requests in %2 s</source>
        <translation>%2 秒内 %1 个请求</translation>
    </message>
    <message>
        <source>%1 (%2), %3</source>
        <translation>%1（%2），%3</translation>
    </message>
    <message>
        <source>Joules per output token: the GPUs&apos; energy during the step (from a GPU exporter&apos;s metrics) over the step&apos;s output tokens</source>
        <translation>每个输出 token 的焦耳数：步骤期间 GPU 消耗的能量（取自 GPU 导出器的指标）除以该步骤的输出 token 数</translation>
    </message>
    <message>
        <source>Energy
(J/tok)</source>
        <translation>能耗
(J/tok)</translation>
    </message>
    <message>
        <source>%1 still running at the end</source>
        <translation>%1 个请求在结束时仍在运行</translation>
    </message>
</context>
<context>
    <name>kp::ui::SweepWorker</name>
    <message>
        <source>The profile cannot run: %1</source>
        <translation>配置无法运行：%1</translation>
    </message>
    <message>
        <source>built-in simulator (%1)</source>
        <translation>内置模拟器（%1）</translation>
    </message>
    <message>
        <source>Built-in simulator: %1</source>
        <translation>内置模拟器：%1</translation>
    </message>
    <message>
        <source>Preflight: checking %1</source>
        <translation>预检：正在检查 %1</translation>
    </message>
    <message>
        <source>%1 skipped</source>
        <translation>%1 已跳过</translation>
    </message>
    <message>
        <source>%1 %2 (%3 ms)</source>
        <translation>%1 %2（%3 ms）</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Preflight: %1</source>
        <translation>预检：%1</translation>
    </message>
    <message>
        <source>Model: %1 (the first the server lists)</source>
        <translation>模型：%1（服务器列出的第一个）</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>Run directory: %1</source>
        <translation>运行目录：%1</translation>
    </message>
    <message>
        <source>Error: %1; stopping</source>
        <translation>错误：%1；正在停止</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Added a step: %1 (%2)</source>
        <translation>已添加一步：%1（%2）</translation>
    </message>
    <message>
        <source>Input tokens: %1</source>
        <translation>输入 token：%1</translation>
    </message>
    <message>
        <source>The run cannot be saved: %1</source>
        <translation>无法保存本次运行：%1</translation>
    </message>
    <message>
        <source>Preflight: checking %1 (%2)</source>
        <translation>预检：正在检查 %1（%2）</translation>
    </message>
    <message>
        <source>Preflight: still waiting for %1 (%2 s of at most %3 s)</source>
        <translation>预检：仍在等待 %1（已 %2 秒，最多 %3 秒）</translation>
    </message>
    <message>
        <source>Preflight: %1 failed (%2), retrying in %3 s as its Retry-After asks (try %4 of %5)</source>
        <translation>预检：%1 失败（%2），按其 Retry-After 要求在 %3 秒后重试（第 %4 次，共 %5 次）</translation>
    </message>
    <message>
        <source>Preflight: %1 failed (%2), retrying in %3 s (try %4 of %5)</source>
        <translation>预检：%1 失败（%2），%3 秒后重试（第 %4 次，共 %5 次）</translation>
    </message>
    <message>
        <source>Warning: the dataset has %1 prompts for at least %2 requests: %3 % of requests will re-send a prompt (a prefix-caching server will look faster than under real traffic)</source>
        <translation>警告：数据集只有 %1 个提示，却要发送至少 %2 个请求：%3 % 的请求会重复发送同一提示（开启前缀缓存的服务器会显得比真实流量下更快）</translation>
    </message>
    <message>
        <source>Warning: the dataset has %1 prompts for %2 requests: %3 % of requests will re-send a prompt (a prefix-caching server will look faster than under real traffic)</source>
        <translation>警告：数据集只有 %1 个提示，却要发送 %2 个请求：%3 % 的请求会重复发送同一提示（开启前缀缓存的服务器会显得比真实流量下更快）</translation>
    </message>
    <message>
        <source>The sweep was not started: %1</source>
        <translation>扫描未启动：%1</translation>
    </message>
    <message>
        <source>The server sweep cannot run: %1</source>
        <translation>服务器扫描无法运行：%1</translation>
    </message>
    <message numerus="yes">
        <source>Server sweep: %n configuration(s), one after another, into %1</source>
        <translation>
            <numerusform>服务器扫描：%n 个配置，依次运行，保存到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Server sweep %1 of %2: %3 finished before, skipped</source>
        <translation>服务器扫描 %1/%2：%3 之前已完成，已跳过</translation>
    </message>
    <message>
        <source>Server sweep %1 of %2: %3</source>
        <translation>服务器扫描 %1/%2：%3</translation>
    </message>
    <message>
        <source>Server: %1</source>
        <translation>服务器：%1</translation>
    </message>
    <message>
        <source>Server ready after %1 s at %2</source>
        <translation>服务器在 %1 秒后就绪，地址 %2</translation>
    </message>
    <message>
        <source>Error: %1; stopping the sweep</source>
        <translation>错误：%1；正在停止扫描</translation>
    </message>
    <message>
        <source>Stopping the server (%1)</source>
        <translation>正在停止服务器（%1）</translation>
    </message>
    <message>
        <source>Server sweep: %1</source>
        <translation>服务器扫描：%1</translation>
    </message>
    <message>
        <source>Stopped escalating: %1</source>
        <translation>已停止加压：%1</translation>
    </message>
</context>
<context>
    <name>kp::ui::TargetsPage</name>
    <message>
        <source>&amp;New target</source>
        <translation>新建目标(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save target</source>
        <translation>保存目标(&amp;S)</translation>
    </message>
    <message>
        <source>Verify TLS certificates</source>
        <translation>验证 TLS 证书</translation>
    </message>
    <message>
        <source>http://127.0.0.1:8000 or https://gateway.example.com/v1</source>
        <translation>http://127.0.0.1:8000 或 https://gateway.example.com/v1</translation>
    </message>
    <message>
        <source>default for the backend</source>
        <translation>后端默认值</translation>
    </message>
    <message>
        <source>the first model the server lists</source>
        <translation>服务器列出的第一个模型</translation>
    </message>
    <message>
        <source>${OPENAI_API_KEY}</source>
        <translation>${OPENAI_API_KEY}</translation>
    </message>
    <message>
        <source>Best as a reference to an environment variable, ${NAME}: one variable can serve many targets, and the key never lands in a file.</source>
        <translation>最好引用环境变量 ${NAME}：一个变量可供多个目标使用，密钥也不会写入文件。</translation>
    </message>
    <message>
        <source>One header per line: Name: value (values may use ${VAR})</source>
        <translation>每行一个请求头：名称: 值（值可以使用 ${VAR}）</translation>
    </message>
    <message>
        <source>Saved targets</source>
        <translation>已保存的目标</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <source>Kept in %1; a profile refers to a target by its name.</source>
        <translation>保存在 %1；配置通过名称引用目标。</translation>
    </message>
    <message>
        <source>No profile in the library refers to this target yet.</source>
        <translation>配置库中还没有配置引用此目标。</translation>
    </message>
    <message numerus="yes">
        <source>Used by %n profile(s): %1</source>
        <translation>
            <numerusform>被 %n 个配置使用：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>No key: requests carry no Authorization header (unless OPENAI_API_KEY is set).</source>
        <translation>无密钥：请求不带 Authorization 请求头（除非设置了 OPENAI_API_KEY）。</translation>
    </message>
    <message>
        <source>Read from the environment when a run starts.</source>
        <translation>运行开始时从环境变量读取。</translation>
    </message>
    <message>
        <source>A literal key is stored in the targets file (owner-only). A ${VAR} reference keeps it out of files.</source>
        <translation>直接填写的密钥会保存在目标文件中（仅所有者可读）。使用 ${VAR} 引用可避免写入文件。</translation>
    </message>
    <message>
        <source>Headers, line %1: expected &quot;Name: value&quot;</source>
        <translation>请求头第 %1 行：应为 &quot;名称: 值&quot;</translation>
    </message>
    <message>
        <source>Saved &quot;%1&quot;.</source>
        <translation>已保存 &quot;%1&quot;。</translation>
    </message>
    <message>
        <source>Remove the target &quot;%1&quot;?</source>
        <translation>删除目标 &quot;%1&quot;？</translation>
    </message>
    <message numerus="yes">
        <source>Remove the target &quot;%1&quot;? %n profile(s) refer to it and will not run until it exists again: %2</source>
        <translation>
            <numerusform>删除目标 &quot;%1&quot;？有 %n 个配置引用它，在它重新存在之前这些配置将无法运行：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove target</source>
        <translation>删除目标</translation>
    </message>
    <message>
        <source>Removed &quot;%1&quot;.</source>
        <translation>已删除 &quot;%1&quot;。</translation>
    </message>
    <message>
        <source>Reading the saved targets</source>
        <translation>正在读取已保存的目标</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Looking for the profiles that refer to this target…</source>
        <translation>正在查找引用此目标的配置…</translation>
    </message>
    <message>
        <source>Not saved: part of the file could not be read, and saving would replace it without that part. Correct the file or move it away; the page reads it again when you come back to it.</source>
        <translation>未保存：文件有一部分无法读取，保存会用缺少该部分的内容替换它。请更正该文件或将其移走；回到此页面时会重新读取。</translation>
    </message>
    <message>
        <source>Saving &quot;%1&quot;…</source>
        <translation>正在保存“%1”…</translation>
    </message>
    <message>
        <source>Removing &quot;%1&quot;…</source>
        <translation>正在删除“%1”…</translation>
    </message>
    <message>
        <source>Looking for the profiles that refer to %1</source>
        <translation>正在查找引用 %1 的配置</translation>
    </message>
</context>
<context>
    <name>kp::ui::ThroughputChart</name>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>ideal y = x</source>
        <translation>理想 y = x</translation>
    </message>
    <message>
        <source>achieved req/s</source>
        <translation>实际 req/s</translation>
    </message>
    <message>
        <source>output tok/s</source>
        <translation>输出 tok/s</translation>
    </message>
    <message>
        <source>knee</source>
        <translation>拐点</translation>
    </message>
    <message>
        <source>SLO capacity</source>
        <translation>SLO 容量</translation>
    </message>
    <message>
        <source>req/s</source>
        <translation>req/s</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>tok/s</translation>
    </message>
    <message>
        <source>Users (concurrency)</source>
        <translation>用户数（并发）</translation>
    </message>
    <message>
        <source>Offered load (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
    <message>
        <source>Achieved req/s and output tok/s against the offered load.</source>
        <translation>实际 req/s 与输出 tok/s 随施加负载的变化。</translation>
    </message>
</context>
<context>
    <name>kp::ui::TimelineChart</name>
    <message>
        <source>TTFT P50</source>
        <translation>TTFT P50</translation>
    </message>
    <message>
        <source>TTFT P99</source>
        <translation>TTFT P99</translation>
    </message>
    <message>
        <source>ITL P50</source>
        <translation>ITL P50</translation>
    </message>
    <message>
        <source>ITL P99</source>
        <translation>ITL P99</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>延迟 (ms)</translation>
    </message>
    <message>
        <source>server: running</source>
        <translation>服务器：运行中</translation>
    </message>
    <message>
        <source>server: waiting</source>
        <translation>服务器：等待中</translation>
    </message>
    <message>
        <source>KV-cache usage</source>
        <translation>KV 缓存占用</translation>
    </message>
    <message>
        <source>prefix-cache hit rate</source>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Percent</source>
        <translation>百分比</translation>
    </message>
    <message>
        <source>offered</source>
        <translation>发出</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>output tokens/s</source>
        <translation>输出 tokens/s</translation>
    </message>
    <message>
        <source>Output tokens/s</source>
        <translation>输出 tokens/s</translation>
    </message>
    <message>
        <source>Step timeline</source>
        <translation>步的时间线</translation>
    </message>
    <message>
        <source>Second of the step (s)</source>
        <translation>步内秒数 (s)</translation>
    </message>
    <message>
        <source>Which figures of each second to draw</source>
        <translation>每秒绘制哪些数据</translation>
    </message>
    <message>
        <source>Requests and tokens</source>
        <translation>请求和 token</translation>
    </message>
    <message>
        <source>TTFT and ITL</source>
        <translation>TTFT 和 ITL</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Step %1 · %2, second by second · %3</source>
        <translation>第 %1 步 · %2，逐秒 · %3</translation>
    </message>
    <message>
        <source>Select a finished step to see it second by second.</source>
        <translation>选择一个已完成的步以逐秒查看。</translation>
    </message>
    <message>
        <source>Step %1 has no request records, so no timeline (a run exported without them, or an imported file).</source>
        <translation>第 %1 步没有请求记录，因此没有时间线（导出时未包含请求记录，或是导入的文件）。</translation>
    </message>
    <message>
        <source>The server&apos;s /metrics gave none of these figures for this step.</source>
        <translation>服务器的 /metrics 在这一步没有给出这些数据。</translation>
    </message>
    <message>
        <source>No request of this step completed.</source>
        <translation>这一步没有完成的请求。</translation>
    </message>
    <message>
        <source>Step %1 has no timeline: %2.</source>
        <translation>第 %1 步没有时间线：%2。</translation>
    </message>
</context>
<context>
    <name>kp::ui::TtftBreakdownChart</name>
    <message>
        <source>Part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Mean (ms)</source>
        <translation>均值 (ms)</translation>
    </message>
    <message>
        <source>P50 (ms)</source>
        <translation>P50 (ms)</translation>
    </message>
    <message>
        <source>P90 (ms)</source>
        <translation>P90 (ms)</translation>
    </message>
    <message>
        <source>P99 (ms)</source>
        <translation>P99 (ms)</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>server histogram</source>
        <translation>服务器直方图</translation>
    </message>
    <message>
        <source>Dispatch lag (before the send, not in TTFT)</source>
        <translation>调度延迟（发送之前，不计入 TTFT）</translation>
    </message>
    <message>
        <source>client</source>
        <translation>客户端</translation>
    </message>
    <message numerus="yes">
        <source>Connect + TLS (%n new connection(s))</source>
        <translation>
            <numerusform>连接 + TLS（%n 个新连接）</numerusform>
        </translation>
    </message>
    <message>
        <source>Connect + TLS (new connections)</source>
        <translation>连接 + TLS（新连接）</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>Client part (TTFT − queue − prefill)</source>
        <translation>客户端部分（TTFT − 排队 − 预填充）</translation>
    </message>
    <message>
        <source>client − server</source>
        <translation>客户端 − 服务器</translation>
    </message>
    <message>
        <source>TTFT (server)</source>
        <translation>TTFT（服务器）</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>Inference (prefill + decode)</source>
        <translation>推理（预填充 + 解码）</translation>
    </message>
    <message>
        <source>End to end (server)</source>
        <translation>端到端（服务器）</translation>
    </message>
    <message>
        <source>Where TTFT goes (mean ms)</source>
        <translation>TTFT 的构成（平均 ms）</translation>
    </message>
    <message>
        <source>client (TTFT − server)</source>
        <translation>客户端（TTFT − 服务器）</translation>
    </message>
    <message>
        <source>queue</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>knee</source>
        <translation>拐点</translation>
    </message>
    <message>
        <source>Stack the server&apos;s decode time on top: the rest of a request&apos;s time after TTFT.</source>
        <translation>在顶部叠加服务器的解码时间：请求在 TTFT 之后的其余时间。</translation>
    </message>
    <message>
        <source>Users (concurrency)</source>
        <translation>用户数（并发）</translation>
    </message>
    <message>
        <source>Offered load (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
    <message>
        <source>Where TTFT goes against the offered load, as steps finish.</source>
        <translation>随各步完成，TTFT 的构成随施加负载的变化。</translation>
    </message>
    <message>
        <source>No server histograms of queue and prefill time: the server&apos;s /metrics must carry vLLM&apos;s request_queue_time_seconds and request_prefill_time_seconds (or run against the simulator).</source>
        <translation>服务器没有排队和预填充时间的直方图：服务器的 /metrics 必须提供 vLLM 的 request_queue_time_seconds 和 request_prefill_time_seconds（或针对模拟器运行）。</translation>
    </message>
</context>
<context>
    <name>kp::ui::UiFormat</name>
    <message>
        <source>req/s</source>
        <translation>req/s</translation>
    </message>
    <message>
        <source>users</source>
        <translation>并发</translation>
    </message>
    <message>
        <source>linear</source>
        <comment>region of the load-latency curve</comment>
        <translation>线性区</translation>
    </message>
    <message>
        <source>knee</source>
        <comment>region of the load-latency curve</comment>
        <translation>拐点区</translation>
    </message>
    <message>
        <source>overload</source>
        <comment>region of the load-latency curve</comment>
        <translation>过载区</translation>
    </message>
    <message>
        <source>coarse</source>
        <comment>why a sweep step ran</comment>
        <translation>粗扫</translation>
    </message>
    <message>
        <source>floor</source>
        <comment>why a sweep step ran</comment>
        <translation>下限</translation>
    </message>
    <message>
        <source>ceiling</source>
        <comment>why a sweep step ran</comment>
        <translation>上限</translation>
    </message>
    <message>
        <source>refine</source>
        <comment>why a sweep step ran</comment>
        <translation>细化</translation>
    </message>
    <message>
        <source>repeat</source>
        <comment>why a sweep step ran</comment>
        <translation>重复</translation>
    </message>
    <message>
        <source>manual</source>
        <comment>why a sweep step ran</comment>
        <translation>手动</translation>
    </message>
    <message>
        <source>1 user</source>
        <translation>1 并发</translation>
    </message>
    <message>
        <source>%1 users</source>
        <translation>%1 并发</translation>
    </message>
    <message>
        <source>%1 req/s</source>
        <translation>%1 req/s</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the items of a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>finished</source>
        <comment>status of a run</comment>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <comment>status of a run</comment>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <comment>status of a run</comment>
        <translation>失败</translation>
    </message>
    <message>
        <source>running</source>
        <comment>status of a run</comment>
        <translation>运行中</translation>
    </message>
    <message>
        <source>interrupted</source>
        <comment>status of a run</comment>
        <translation>已中断</translation>
    </message>
    <message>
        <source>† derived from the file&apos;s other fields</source>
        <translation>† 由文件中的其他字段推算</translation>
    </message>
</context>
<context>
    <name>kp::ui::WhatIfChart</name>
    <message>
        <source>What if: load–latency</source>
        <translation>假设分析：负载–延迟</translation>
    </message>
    <message>
        <source>The twin&apos;s prediction appears here once it is fitted to a finished run.</source>
        <translation>数字孪生拟合到已完成的运行后，其预测会显示在这里。</translation>
    </message>
</context>
<context>
    <name>kp::ui::WhatIfPanel</name>
    <message>
        <source>fitted —</source>
        <translation>拟合值 —</translation>
    </message>
    <message>
        <source>not identified by the run</source>
        <translation>该运行无法确定</translation>
    </message>
    <message>
        <source>unbounded by the run</source>
        <translation>该运行未能限定范围</translation>
    </message>
    <message>
        <source>fitted %1 (%2)</source>
        <translation>拟合值 %1（%2）</translation>
    </message>
    <message>
        <source>Save twin…</source>
        <translation>保存数字孪生…</translation>
    </message>
    <message>
        <source>The most requests the server runs at once (max_num_seqs)</source>
        <translation>服务器同时运行的最大请求数（max_num_seqs）</translation>
    </message>
    <message>
        <source>The KV cache&apos;s capacity in tokens (kv_capacity_tokens)</source>
        <translation>KV 缓存的容量，以 token 计（kv_capacity_tokens）</translation>
    </message>
    <message>
        <source>× faster</source>
        <translation>× 速度</translation>
    </message>
    <message>
        <source>Decode speed against the measured server: 2 halves each decode iteration&apos;s cost (per_decode_ms and per_kv_token_ms)</source>
        <translation>相对实测服务器的解码速度：2 表示每次解码迭代的开销减半（per_decode_ms 和 per_kv_token_ms）</translation>
    </message>
    <message>
        <source>Prefill speed against the measured server: 2 halves the cost per prompt token (per_prefill_token_ms)</source>
        <translation>相对实测服务器的预填充速度：2 表示每个提示 token 的开销减半（per_prefill_token_ms）</translation>
    </message>
    <message>
        <source>Servers like this one behind a round-robin load balancer</source>
        <translation>轮询负载均衡器后面与此相同的服务器数量</translation>
    </message>
    <message>
        <source>Write the twin with the settings above (not the replicas) to a twin.json that kneepoint-sim --config serves</source>
        <translation>将应用上述设置（不含副本数）的数字孪生写入 twin.json，可由 kneepoint-sim --config 提供服务</translation>
    </message>
    <message>
        <source>max_num_seqs</source>
        <translation>max_num_seqs</translation>
    </message>
    <message>
        <source>KV capacity (tokens)</source>
        <translation>KV 容量（token）</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>Replicas</source>
        <translation>副本数</translation>
    </message>
    <message>
        <source>Fitting the twin</source>
        <translation>正在拟合数字孪生</translation>
    </message>
    <message>
        <source>per decode iteration: %1 ms</source>
        <translation>每次解码迭代：%1 ms</translation>
    </message>
    <message>
        <source>per prompt token: %1 ms</source>
        <translation>每个提示 token：%1 ms</translation>
    </message>
    <message>
        <source>Predicting</source>
        <translation>正在预测</translation>
    </message>
    <message>
        <source>Fitting the twin to the run…</source>
        <translation>正在将数字孪生拟合到该运行…</translation>
    </message>
    <message>
        <source>No twin: %1</source>
        <translation>没有数字孪生：%1</translation>
    </message>
    <message>
        <source>The What-if panel fits the twin once the sweep has ended.</source>
        <translation>扫描结束后，假设分析面板会拟合数字孪生。</translation>
    </message>
    <message>
        <source>Open or finish a run to fit its twin.</source>
        <translation>打开或完成一次运行以拟合其数字孪生。</translation>
    </message>
    <message>
        <source>Twin fitted to %1; every curve and figure below it is predicted, not measured.</source>
        <translation>数字孪生拟合自 %1；下方的所有曲线和数字都是预测值，而非实测值。</translation>
    </message>
    <message>
        <source>Predicting…</source>
        <translation>正在预测…</translation>
    </message>
    <message>
        <source>Predicted knee: about %1 %2</source>
        <translation>预测拐点：约 %1 %2</translation>
    </message>
    <message>
        <source>Predicted knee: none within %1 %2</source>
        <translation>预测拐点：%1 %2 以内没有</translation>
    </message>
    <message>
        <source>Predicted SLO capacity: %1about %2 %3</source>
        <translation>预测 SLO 容量：%1约 %2 %3</translation>
    </message>
    <message>
        <source>Predicted saturation throughput: %1 req/s</source>
        <translation>预测饱和吞吐量：%1 req/s</translation>
    </message>
    <message>
        <source>Predicted capacity plan (each server: %1): %2</source>
        <translation>预测容量规划（每台服务器：%1）：%2</translation>
    </message>
    <message>
        <source>one replica</source>
        <translation>一个副本</translation>
    </message>
    <message>
        <source>%1 replicas</source>
        <translation>%1 个副本</translation>
    </message>
    <message>
        <source>measured %1</source>
        <translation>实测 %1</translation>
    </message>
    <message>
        <source>predicted %1</source>
        <translation>预测 %1</translation>
    </message>
    <message>
        <source>Users (concurrency)</source>
        <translation>用户数（并发）</translation>
    </message>
    <message>
        <source>Offered load (req/s)</source>
        <translation>施加负载 (req/s)</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1 (ms)</translation>
    </message>
    <message>
        <source>no twin is fitted yet</source>
        <translation>尚未拟合数字孪生</translation>
    </message>
    <message>
        <source>Save twin</source>
        <translation>保存数字孪生</translation>
    </message>
    <message>
        <source>Twin (*.json)</source>
        <translation>数字孪生 (*.json)</translation>
    </message>
    <message>
        <source>Could not save the twin to %1: %2</source>
        <translation>无法将数字孪生保存到 %1：%2</translation>
    </message>
    <message>
        <source>Saved the twin to %1</source>
        <translation>已将数字孪生保存到 %1</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Latency before the engine, added to every request&apos;s TTFT: the API server, tokenization, the network (pre_engine_ms; its fitted spread stays)</source>
        <translation>引擎之前的延迟，加到每个请求的 TTFT 上：API 服务器、分词、网络（pre_engine_ms；其拟合的离散度保持不变）</translation>
    </message>
    <message>
        <source>Before the engine</source>
        <translation>引擎之前</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Time each request takes of the single API-server process, one request at a time: a queue before the engine that grows with the load (api_server_ms)</source>
        <translation>每个请求占用单个 API 服务器进程的时间，一次处理一个请求：引擎之前随负载增长的队列（api_server_ms）</translation>
    </message>
    <message>
        <source>API server per request</source>
        <translation>API 服务器每请求耗时</translation>
    </message>
</context>
</TS>
