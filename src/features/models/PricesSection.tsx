import { useState } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';

/** The price table used for cost figures, in dollars per million tokens; local models are free. */
export function PricesSection() {
  const prices = useAppStore((s) => s.modelSettings.prices);
  const setPrice = useAppStore((s) => s.setPrice);
  const [model, setModel] = useState('');

  return (
    <>
      <p className="models-intro">
        Dollars per million tokens, used for the cost of runs. A model without a price shows its
        tokens but no cost. Check your provider’s current prices.
      </p>
      <table className="models-table">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Input</th>
            <th scope="col">Output</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(prices).map(([name, price]) => (
            <tr key={name}>
              <th scope="row">
                <code>{name}</code>
              </th>
              {(['inputPerMillion', 'outputPerMillion'] as const).map((field) => (
                <td key={field}>
                  <input
                    type="number"
                    min={0}
                    step={0.01}
                    aria-label={`${field === 'inputPerMillion' ? 'Input' : 'Output'} price of ${name}`}
                    value={price[field]}
                    onChange={(event) => {
                      const value = Number(event.target.value);
                      if (Number.isFinite(value) && value >= 0) {
                        setPrice(name, { ...price, [field]: value });
                      }
                    }}
                  />
                </td>
              ))}
              <td>
                <button
                  type="button"
                  className="button button-quiet"
                  onClick={() => {
                    setPrice(name, undefined);
                  }}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="models-actions"
        onSubmit={(event) => {
          event.preventDefault();
          const name = model.trim();
          if (name === '' || Object.hasOwn(prices, name)) return;
          setPrice(name, { inputPerMillion: 0, outputPerMillion: 0 });
          setModel('');
        }}
      >
        <input
          aria-label="Model name to price"
          placeholder="model name"
          value={model}
          onChange={(event) => {
            setModel(event.target.value);
          }}
        />
        <button type="submit" className="button button-quiet">
          Add a price
        </button>
      </form>
    </>
  );
}
