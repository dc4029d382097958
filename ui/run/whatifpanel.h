#pragma once

#include "kit/chartpanel.h"
#include "kit/jobtracker.h"
#include "sweep/kneeanalysis.h"
#include "twin/twin.h"

#include <QTimer>
#include <QWidget>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QLabel;
class QLineSeries;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;

// The measured latency curve and the twin's predicted one (dashed, named "predicted").
class WhatIfChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit WhatIfChart(QWidget* parent = nullptr);
    void setCurves(const QList<QPointF>& measured, const QList<QPointF>& predicted, const QString& measuredName,
        const QString& predictedName, const QString& xTitle, const QString& yTitle);
    QLineSeries* measuredSeries() const { return m_measured; }
    QLineSeries* predictedSeries() const { return m_predicted; }

protected:
    void restyle() override;

private:
    QLineSeries* m_measured;
    QLineSeries* m_predicted;
    QValueAxis* m_x;
    QValueAxis* m_y;
};

// What if the server were different: the twin fitted to a finished run (on the thread pool), its
// parameters as fields with the fitted value and uncertainty beside each, and the run predicted again
// (debounced, on the thread pool) as they change, beside the measured curve, with the predicted knee,
// SLO capacity and capacity plan in words.
class WhatIfPanel : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfPanel(const LiveRun* run, QWidget* parent = nullptr);

    // Fits the twin to the run shown, unless it was fitted already; a run in progress is not fitted.
    void fitIfNeeded();
    bool isBusy() const { return m_fitJob.isBusy() || m_predictJob.isBusy() || m_debounce.isActive(); }
    const std::optional<twin::Twin>& twin() const { return m_twin; }
    QString status() const; // the busy state, the refusal, or what the fit rests on
    // The twin with the fields' settings applied (replicas are not part of it).
    std::optional<twin::Twin> adjustedTwin(QString* error = nullptr) const;
    // The fields' settings as the twin's adjustments, in the order they apply.
    std::vector<twin::Adjustment> adjustments() const;
    const std::vector<SweepPoint>& predicted() const { return m_predicted; }
    const AnalysisResult& predictedAnalysis() const { return m_analysis; }
    double predictedSaturationRps() const; // the most requests per second any predicted load completes
    QString findings() const; // the predicted knee, SLO capacity, saturation and plan in words

    QSpinBox* maxNumSeqsBox() const { return m_seqs; }
    QSpinBox* kvCapacityBox() const { return m_kv; }
    QDoubleSpinBox* decodeSpeedBox() const { return m_decode; }
    QDoubleSpinBox* prefillSpeedBox() const { return m_prefill; }
    QDoubleSpinBox* preEngineBox() const { return m_preEngine; } // pre_engine_ms, in ms
    QDoubleSpinBox* apiServerBox() const { return m_apiServer; } // api_server_ms, in ms
    QSpinBox* replicasBox() const { return m_replicas; }
    WhatIfChart* chart() const { return m_chart; }
    bool saveTwin(const QString& path, QString* error) const; // atomic, through writeTwinFile

Q_SIGNALS:
    void changed(); // a fit or a prediction arrived, or the run changed

private:
    void clear();
    void onFitted(const twin::FitResult& fit);
    void schedulePredict();
    void predict();
    void redraw();
    void onSaveClicked();

    const LiveRun* m_run;
    JobTracker m_fitJob;
    JobTracker m_predictJob;
    QTimer m_debounce;
    QString m_fittedFor; // the run directory the twin was fitted to
    std::optional<twin::Twin> m_twin;
    QString m_refusal;
    std::vector<SweepPoint> m_predicted;
    AnalysisResult m_analysis;
    bool m_settingFields = false;
    QLabel* m_status;
    QSpinBox* m_seqs;
    QSpinBox* m_kv;
    QDoubleSpinBox* m_decode;
    QDoubleSpinBox* m_prefill;
    QDoubleSpinBox* m_preEngine;
    QDoubleSpinBox* m_apiServer;
    QSpinBox* m_replicas;
    QLabel* m_seqsFit;
    QLabel* m_kvFit;
    QLabel* m_decodeFit;
    QLabel* m_prefillFit;
    QLabel* m_preEngineFit;
    QLabel* m_apiServerFit;
    QPlainTextEdit* m_findings; // read-only: scrolls when what it says outgrows the tab
    QPushButton* m_save;
    WhatIfChart* m_chart;
};

} // namespace kp::ui
