// Generated from schemas/components/TokenChunker.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/TokenChunker.schema.json","title":"TokenChunker params","description":"RAGFlow's TokenChunker (legacy Splitter): splits a document into chunks of about chunk_token_size cl100k tokens, at delimiters, with overlap, children and media context.","type":"object","properties":{"delimiter_mode":{"enum":["delimiter","one","token_size"],"default":"delimiter","description":"delimiter: split and merge by size; one: the whole document is one chunk; token_size: legacy, read as delimiter."},"chunk_token_size":{"type":"integer","minimum":1,"default":512,"description":"Tokens per chunk; a chunk may pass it by one paragraph or item."},"delimiters":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"},{"type":"null"}],"default":["\n"],"description":"Backtick-wrapped tokens (e.g. \"`##`\") cut the text and each piece is a chunk; bare characters (e.g. \"\\n\") cut it into paragraphs that are merged by size. Non-strings and empty strings are ignored."},"overlapped_percent":{"type":"number","minimum":0,"maximum":1,"default":0,"description":"Share of the previous chunk's tail repeated at the start of the next (0.1 = 10 %, at most 90 %; 1 means 1 %)."},"children_delimiters":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"},{"type":"null"}],"default":[],"description":"Literal strings that cut each chunk again; the pieces become chunks whose mom is the whole chunk."},"table_context_size":{"type":"number","minimum":0,"default":0,"description":"Tokens of the text around a table added to its chunk (0: none)."},"image_context_size":{"type":"number","minimum":0,"default":0,"description":"Tokens of the text around an image added to its chunk (0: none)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/TokenChunker.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.delimiter_mode !== undefined){
let data0 = data.delimiter_mode;
if(!(((data0 === "delimiter") || (data0 === "one")) || (data0 === "token_size"))){
const err0 = {instancePath:instancePath+"/delimiter_mode",schemaPath:"#/properties/delimiter_mode/enum",keyword:"enum",params:{allowedValues: schema31.properties.delimiter_mode.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.delimiter_mode.enum,parentSchema:schema31.properties.delimiter_mode,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.chunk_token_size !== undefined){
let data1 = data.chunk_token_size;
if(!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))){
const err1 = {instancePath:instancePath+"/chunk_token_size",schemaPath:"#/properties/chunk_token_size/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.chunk_token_size.type,parentSchema:schema31.properties.chunk_token_size,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(typeof data1 == "number"){
if(data1 < 1 || isNaN(data1)){
const err2 = {instancePath:instancePath+"/chunk_token_size",schemaPath:"#/properties/chunk_token_size/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema31.properties.chunk_token_size,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
if(data.delimiters !== undefined){
let data2 = data.delimiters;
const _errs5 = errors;
let valid1 = false;
const _errs6 = errors;
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/delimiters/" + i0,schemaPath:"#/properties/delimiters/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.delimiters.anyOf[0].items.type,parentSchema:schema31.properties.delimiters.anyOf[0].items,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/delimiters",schemaPath:"#/properties/delimiters/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.delimiters.anyOf[0].type,parentSchema:schema31.properties.delimiters.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var _valid0 = _errs6 === errors;
valid1 = valid1 || _valid0;
const _errs10 = errors;
if(typeof data2 !== "string"){
const err5 = {instancePath:instancePath+"/delimiters",schemaPath:"#/properties/delimiters/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.delimiters.anyOf[1].type,parentSchema:schema31.properties.delimiters.anyOf[1],data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var _valid0 = _errs10 === errors;
valid1 = valid1 || _valid0;
const _errs12 = errors;
if(data2 !== null){
const err6 = {instancePath:instancePath+"/delimiters",schemaPath:"#/properties/delimiters/anyOf/2/type",keyword:"type",params:{type: "null"},message:"must be null",schema:schema31.properties.delimiters.anyOf[2].type,parentSchema:schema31.properties.delimiters.anyOf[2],data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var _valid0 = _errs12 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err7 = {instancePath:instancePath+"/delimiters",schemaPath:"#/properties/delimiters/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.delimiters.anyOf,parentSchema:schema31.properties.delimiters,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
else {
errors = _errs5;
if(vErrors !== null){
if(_errs5){
vErrors.length = _errs5;
}
else {
vErrors = null;
}
}
}
}
if(data.overlapped_percent !== undefined){
let data4 = data.overlapped_percent;
if(typeof data4 == "number"){
if(data4 > 1 || isNaN(data4)){
const err8 = {instancePath:instancePath+"/overlapped_percent",schemaPath:"#/properties/overlapped_percent/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1",schema:1,parentSchema:schema31.properties.overlapped_percent,data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data4 < 0 || isNaN(data4)){
const err9 = {instancePath:instancePath+"/overlapped_percent",schemaPath:"#/properties/overlapped_percent/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.overlapped_percent,data:data4};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/overlapped_percent",schemaPath:"#/properties/overlapped_percent/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.overlapped_percent.type,parentSchema:schema31.properties.overlapped_percent,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.children_delimiters !== undefined){
let data5 = data.children_delimiters;
const _errs17 = errors;
let valid4 = false;
const _errs18 = errors;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
let data6 = data5[i1];
if(typeof data6 !== "string"){
const err11 = {instancePath:instancePath+"/children_delimiters/" + i1,schemaPath:"#/properties/children_delimiters/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.children_delimiters.anyOf[0].items.type,parentSchema:schema31.properties.children_delimiters.anyOf[0].items,data:data6};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/children_delimiters",schemaPath:"#/properties/children_delimiters/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.children_delimiters.anyOf[0].type,parentSchema:schema31.properties.children_delimiters.anyOf[0],data:data5};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
var _valid1 = _errs18 === errors;
valid4 = valid4 || _valid1;
const _errs22 = errors;
if(typeof data5 !== "string"){
const err13 = {instancePath:instancePath+"/children_delimiters",schemaPath:"#/properties/children_delimiters/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.children_delimiters.anyOf[1].type,parentSchema:schema31.properties.children_delimiters.anyOf[1],data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid1 = _errs22 === errors;
valid4 = valid4 || _valid1;
const _errs24 = errors;
if(data5 !== null){
const err14 = {instancePath:instancePath+"/children_delimiters",schemaPath:"#/properties/children_delimiters/anyOf/2/type",keyword:"type",params:{type: "null"},message:"must be null",schema:schema31.properties.children_delimiters.anyOf[2].type,parentSchema:schema31.properties.children_delimiters.anyOf[2],data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid1 = _errs24 === errors;
valid4 = valid4 || _valid1;
if(!valid4){
const err15 = {instancePath:instancePath+"/children_delimiters",schemaPath:"#/properties/children_delimiters/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.children_delimiters.anyOf,parentSchema:schema31.properties.children_delimiters,data:data5};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
else {
errors = _errs17;
if(vErrors !== null){
if(_errs17){
vErrors.length = _errs17;
}
else {
vErrors = null;
}
}
}
}
if(data.table_context_size !== undefined){
let data7 = data.table_context_size;
if(typeof data7 == "number"){
if(data7 < 0 || isNaN(data7)){
const err16 = {instancePath:instancePath+"/table_context_size",schemaPath:"#/properties/table_context_size/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.table_context_size,data:data7};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/table_context_size",schemaPath:"#/properties/table_context_size/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.table_context_size.type,parentSchema:schema31.properties.table_context_size,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.image_context_size !== undefined){
let data8 = data.image_context_size;
if(typeof data8 == "number"){
if(data8 < 0 || isNaN(data8)){
const err18 = {instancePath:instancePath+"/image_context_size",schemaPath:"#/properties/image_context_size/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.image_context_size,data:data8};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/image_context_size",schemaPath:"#/properties/image_context_size/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.image_context_size.type,parentSchema:schema31.properties.image_context_size,data:data8};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"delimiter_mode":true,"chunk_token_size":true,"delimiters":true,"overlapped_percent":true,"children_delimiters":true,"table_context_size":true,"image_context_size":true},"dynamicProps":false,"dynamicItems":false};

