import express from 'express';

// The baseline for the benchmarks: Express parsing a JSON body and sending it back.
const app = express();
app.use(express.json());
app.post('/echo', (req, res) => {
  res.json(req.body);
});
app.get('/echo', (_req, res) => {
  res.json({ ok: true });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
