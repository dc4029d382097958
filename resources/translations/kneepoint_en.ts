<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>kp::ui::ChartSet</name>
    <message numerus="yes">
        <source>%n step(s) left off (no TPOT, cut short, or errors over 5%)</source>
        <translation>
            <numerusform>%n step left off (no TPOT, cut short, or errors over 5%)</numerusform>
            <numerusform>%n steps left off (no TPOT, cut short, or errors over 5%)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kp::ui::MainWindow</name>
    <message numerus="yes">
        <source>Matrix finished: %n run(s), tagged %1.</source>
        <translation>
            <numerusform>Matrix finished: %n run, tagged %1.</numerusform>
            <numerusform>Matrix finished: %n runs, tagged %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Matrix ended early: %n run(s) finished, tagged %1.</source>
        <translation>
            <numerusform>Matrix ended early: %n run finished, tagged %1.</numerusform>
            <numerusform>Matrix ended early: %n runs finished, tagged %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reading %n run(s) to compare</source>
        <translation>
            <numerusform>Reading %n run to compare</numerusform>
            <numerusform>Reading %n runs to compare</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Importing %n file(s)</source>
        <translation>
            <numerusform>Importing %n file</numerusform>
            <numerusform>Importing %n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; refused %n file(s): %1</source>
        <translation>
            <numerusform>; refused %n file: %1</numerusform>
            <numerusform>; refused %n files: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kp::ui::RunPage</name>
    <message numerus="yes">
        <source>&lt;b&gt;Server sweep stopped&lt;/b&gt; · %n configuration(s) measured</source>
        <translation>
            <numerusform>&lt;b&gt;Server sweep stopped&lt;/b&gt; · %n configuration measured</numerusform>
            <numerusform>&lt;b&gt;Server sweep stopped&lt;/b&gt; · %n configurations measured</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Server sweep finished&lt;/b&gt; · %n configuration(s) measured</source>
        <translation>
            <numerusform>&lt;b&gt;Server sweep finished&lt;/b&gt; · %n configuration measured</numerusform>
            <numerusform>&lt;b&gt;Server sweep finished&lt;/b&gt; · %n configurations measured</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kp::ui::RunReport</name>
    <message numerus="yes">
        <source>over %n trials</source>
        <translation>
            <numerusform>over %n trial</numerusform>
            <numerusform>over %n trials</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>bootstrap, %n resamples</source>
        <translation>
            <numerusform>bootstrap, %n resample</numerusform>
            <numerusform>bootstrap, %n resamples</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kp::ui::SweepWorker</name>
    <message numerus="yes">
        <source>Server sweep: %n configuration(s), one after another, into %1</source>
        <translation>
            <numerusform>Server sweep: %n configuration, into %1</numerusform>
            <numerusform>Server sweep: %n configurations, one after another, into %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kp::ui::TargetsPage</name>
    <message numerus="yes">
        <source>Used by %n profile(s): %1</source>
        <translation>
            <numerusform>Used by %n profile: %1</numerusform>
            <numerusform>Used by %n profiles: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove the target &quot;%1&quot;? %n profile(s) refer to it and will not run until it exists again: %2</source>
        <translation>
            <numerusform>Remove the target &quot;%1&quot;? %n profile refers to it and will not run until it exists again: %2</numerusform>
            <numerusform>Remove the target &quot;%1&quot;? %n profiles refer to it and will not run until it exists again: %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kp::ui::TtftBreakdownChart</name>
    <message numerus="yes">
        <source>Connect + TLS (%n new connection(s))</source>
        <translation>
            <numerusform>Connect + TLS (%n new connection)</numerusform>
            <numerusform>Connect + TLS (%n new connections)</numerusform>
        </translation>
    </message>
</context>
</TS>
