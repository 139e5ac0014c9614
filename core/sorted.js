// Binary search over a sorted array (numbers, or strings in JavaScript's `<` order).

// The index of the first element of array[from..to) that is not below `value` (`to` when there is none).
export function lowerBound(array, value, from = 0, to = array.length) {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (array[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
