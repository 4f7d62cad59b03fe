/** Public surface of the fake OpenCode server, for tests and the benchmark. (The prefix-cache model it uses is src/cacheModel/.) */
export * from './server';
