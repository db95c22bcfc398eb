export * as listSearch from './listSearch';
export * as loadOptions from './loadOptions';
