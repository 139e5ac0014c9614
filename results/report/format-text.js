// The report as aligned plain text (the default, for the terminal) and as Markdown.
import { reportBlocks } from './blocks.js';

function align({ header, rows, numeric }) {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((r) => r[column].length)));
  const right = new Set(numeric);
  return all.map((r) => r.map((cell, column) => (right.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
    .join('  ').trimEnd());
}

export function formatReportTable(report) {
  const lines = [];
  for (const block of reportBlocks(report)) {
    if (lines.length > 0) lines.push('');
    if (block.kind === 'text') {
      lines.push(block.title, ...block.lines);
    } else if (block.kind === 'table') {
      lines.push(`${block.title}:`, ...align(block).map((line) => `  ${line}`));
    } else {
      lines.push(`${block.title}:`);
      for (const item of block.items) {
        if (item.lines.length === 1) lines.push(`  ${item.label}  ${item.lines[0]}`);
        else lines.push(`  ${item.label}`, ...item.lines.map((line) => `    ${line}`));
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

// Markdown cells may not hold a pipe or a line break.
const md = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function formatReportMarkdown(report) {
  const lines = [];
  for (const block of reportBlocks(report)) {
    if (block.kind === 'text') {
      lines.push(`# ${block.title}`, '', ...block.lines.map((line) => `- ${md(line)}`), '');
    } else if (block.kind === 'table') {
      const right = new Set(block.numeric);
      lines.push(`## ${block.title}`, '', `| ${block.header.map(md).join(' | ')} |`,
        `|${block.header.map((_, i) => (right.has(i) ? '---:' : '---')).join('|')}|`,
        ...block.rows.map((r) => `| ${r.map(md).join(' | ')} |`), '');
    } else {
      lines.push(`## ${block.title}`, '');
      for (const item of block.items) {
        if (item.lines.length === 1) lines.push(`- **${md(item.label)}**: ${md(item.lines[0])}`);
        else lines.push(`- **${md(item.label)}**`, ...item.lines.map((line) => `  - ${md(line)}`));
      }
      lines.push('');
    }
  }
  return lines.join('\n');
}
