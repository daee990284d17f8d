/**
 * The vector half of a local knowledge base: every chunk's embedding, normalized to unit length,
 * in one Float32Array, searched exactly (a dot product per chunk).
 *
 * Exact search rather than an approximate index (usearch, hnswlib, LanceDB): at the sizes one
 * machine serves, a scan of 10 000 × 384 floats takes a few milliseconds, it needs no native
 * module, its results are exact (RAGFlow's own numbers are cosines), and nothing has to be
 * rebuilt when a file changes (bench/workloads/retrieval.mjs measures it).
 */

/** A vector scaled to unit length (a zero vector stays zero). */
function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  const norm = Math.sqrt(sum);
  const out = new Float32Array(vector.length);
  if (norm > 0) for (let i = 0; i < vector.length; i++) out[i] = vector[i] / norm;
  return out;
}

export class VectorIndex {
  readonly size: number;
  private readonly data: Float32Array;

  /** `count` vectors of `dimensions` values; `fill(i, row)` writes chunk i's embedding into `row`. */
  constructor(
    readonly dimensions: number,
    count: number,
    fill: (i: number, row: Float32Array) => void,
  ) {
    this.size = count;
    this.data = new Float32Array(count * dimensions);
    for (let i = 0; i < count; i++) {
      const row = this.data.subarray(i * dimensions, (i + 1) * dimensions);
      fill(i, row);
      let sum = 0;
      for (let j = 0; j < dimensions; j++) sum += row[j] * row[j];
      const norm = Math.sqrt(sum);
      if (norm > 0) for (let j = 0; j < dimensions; j++) row[j] /= norm;
    }
  }

  /** From one vector per chunk (tests, small indexes). */
  static of(dimensions: number, vectors: readonly Float32Array[]): VectorIndex {
    return new VectorIndex(dimensions, vectors.length, (i, row) => {
      if (vectors[i].length !== dimensions) throw new Error(`chunk ${i} has a ${vectors[i].length}-dimensional vector, the index ${dimensions}`);
      row.set(vectors[i]);
    });
  }

  /** The cosine of the query with every chunk, by chunk index. */
  cosines(query: Float32Array): Float32Array {
    if (query.length !== this.dimensions) throw new Error(`the query vector has ${query.length} dimensions, the index ${this.dimensions}`);
    const q = unit(query);
    const d = this.dimensions;
    const data = this.data;
    const out = new Float32Array(this.size);
    // Four sums at once: fewer dependent additions in a row, which JITs run markedly faster.
    const tail = d - (d % 4);
    for (let row = 0, offset = 0; row < this.size; row++, offset += d) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let j = 0; j < tail; j += 4) {
        s0 += data[offset + j] * q[j];
        s1 += data[offset + j + 1] * q[j + 1];
        s2 += data[offset + j + 2] * q[j + 2];
        s3 += data[offset + j + 3] * q[j + 3];
      }
      for (let j = tail; j < d; j++) s0 += data[offset + j] * q[j];
      out[row] = s0 + s1 + s2 + s3;
    }
    return out;
  }
}

/** Indexes of the `topK` largest values that are at least `min`, largest first. */
export function topIndexes(values: Float32Array, topK: number, min: number): number[] {
  const picked: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i] >= min) picked.push(i);
  picked.sort((a, b) => values[b] - values[a] || a - b);
  return picked.length > topK ? picked.slice(0, topK) : picked;
}
