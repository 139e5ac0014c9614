// What a reader would see wrong on a drawn report page, found in the page itself (run by page.evaluate: the
// function must not reach outside itself). Returns { charts, sections, problems }: each chart's title, its
// canvas box and its count of drawn figures; each chart section's id with its count of charts and sentences;
// and every problem, one line each:
// - a chart whose data holds no figure (an empty chart),
// - a canvas of no size, or reaching past the page's width (overflow),
// - two canvases whose boxes overlap,
// - tick labels of one axis that overlap each other (x: the labels' widths, or their height once rotated;
//   y: their height), or a category axis that skips some of its labels to fit,
// - a chart section with neither a chart nor a sentence saying why it has none.
export function pageLayout() {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const charts = [];
  const context = document.createElement('canvas').getContext('2d');
  for (const canvas of document.querySelectorAll('canvas')) {
    const chart = window.Chart.getChart(canvas);
    const box = canvas.getBoundingClientRect();
    const title = chart?.options.plugins.title.text ?? canvas.getAttribute('aria-label');
    const figures = chart ? chart.data.datasets.reduce((sum, dataset) => sum + dataset.data
      .filter((value) => (value !== null && typeof value === 'object' ? typeof value.y === 'number' : typeof value === 'number')).length, 0) : 0;
    charts.push({ title, box: { left: box.left, top: box.top, width: box.width, height: box.height }, figures });
    if (!chart) problems.push(`${title}: a canvas without a chart`);
    if (figures === 0) problems.push(`${title}: an empty chart (no figure in its data)`);
    if (box.width < 50 || box.height < 50) problems.push(`${title}: a canvas of ${box.width}×${box.height} px`);
    if (box.right > width + 0.5) problems.push(`${title}: the canvas reaches ${Math.round(box.right)} px, past the page's ${width} px`);
    for (const scale of chart ? Object.values(chart.scales) : []) {
      if (!scale.options.display || !scale.ticks?.length) continue;
      const font = scale.options.ticks.font ?? window.Chart.defaults.font;
      const size = font.size ?? window.Chart.defaults.font.size;
      context.font = `${size}px ${font.family ?? window.Chart.defaults.font.family}`;
      const labels = scale.ticks.map((tick, index) => ({ text: tick.label, at: scale.getPixelForTick(index) }))
        .filter(({ text }) => text !== null && text !== undefined && String(text) !== '');
      // A category axis that skips labels to fit leaves bars nobody can name.
      if (scale.type === 'category' && chart.data.labels && scale.ticks.length < chart.data.labels.length) {
        problems.push(`${title}: the ${scale.id} axis shows ${scale.ticks.length} of its ${chart.data.labels.length} labels`);
      }
      const horizontal = scale.isHorizontal();
      const rotation = (scale.labelRotation ?? 0) * (Math.PI / 180);
      for (let i = 1; i < labels.length; i += 1) {
        const gap = Math.abs(labels[i].at - labels[i - 1].at);
        const [a, b] = [labels[i - 1], labels[i]].map(({ text }) => (Array.isArray(text) ? text.join(' ') : String(text)));
        const needed = !horizontal ? size : rotation > 0.01 ? size / Math.sin(rotation)
          : (context.measureText(a).width + context.measureText(b).width) / 2;
        if (gap + 0.5 < needed) {
          problems.push(`${title}: the ${scale.id} axis labels "${a}" and "${b}" overlap (${gap.toFixed(1)} px apart, ${needed.toFixed(1)} needed)`);
          break;
        }
      }
    }
  }
  for (let i = 0; i < charts.length; i += 1) {
    for (let j = i + 1; j < charts.length; j += 1) {
      const [a, b] = [charts[i].box, charts[j].box];
      const apart = a.left + a.width <= b.left + 0.5 || b.left + b.width <= a.left + 0.5 || a.top + a.height <= b.top + 0.5 || b.top + b.height <= a.top + 0.5;
      if (!apart) problems.push(`${charts[i].title} and ${charts[j].title}: their canvases overlap`);
    }
  }
  const sections = [];
  for (const holder of document.querySelectorAll('section > .grid, section > div[id^="chart-"], section > p.none')) {
    const drawn = holder.querySelectorAll('canvas').length;
    const sentences = holder.matches('p.none') ? 1 : holder.querySelectorAll('p.none').length;
    sections.push({ id: holder.id, charts: drawn, sentences });
    if (drawn === 0 && sentences === 0) problems.push(`${holder.id}: a chart section with no chart and no word why`);
  }
  if (document.documentElement.scrollWidth > width + 0.5) problems.push(`the page is ${document.documentElement.scrollWidth} px wide, past the window's ${width} px`);
  return { charts, sections, problems };
}
